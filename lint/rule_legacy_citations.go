package lint

import (
	"fmt"
	"strings"

	"github.com/okf-tools/okf/okf"
)

// LegacyCitations reports a v0.1 `# Citations` body list, superseded by `sources` (§13.1).
// Consumers MAY still parse it, so the content is not lost; it is info, with the migration.
var LegacyCitations = &Rule{Code: "OKF508", Name: "legacy-citations", Severity: okf.Info, Spec: "§13.1", Scope: ScopeConcept,
	Title: "legacy v0.1 # Citations list",
	Doc: "v0.2 moves provenance into frontmatter `sources` (§5.1); the body `# Citations` list is superseded (§13.1). " +
		"Move each item into `sources` with an `id` and cite it with a footnote where the claim is made.\n\n" +
		"Bad:\n\n    # Citations\n\n    * [Revenue policy](https://wiki.acme/finance/revenue)\n\n" +
		"Good:\n\n    sources:\n      - id: rev-policy\n        resource: https://wiki.acme/finance/revenue\n        title: Revenue policy\n    ---\n    Revenue is recognized on delivery.[^rev-policy]\n\n    [^rev-policy]: Revenue policy",
	Check: checkLegacyCitations}

func checkLegacyCitations(p *Pass) {
	for _, c := range p.Bundle.Concepts {
		for _, h := range c.Body.Headings {
			if !strings.EqualFold(strings.TrimSpace(h.Text), "citations") {
				continue
			}
			items := fmt.Sprintf("%d items", len(c.Body.Citations))
			if len(c.Body.Citations) == 1 {
				items = "1 item"
			}
			p.Reportf(h.Pos, "legacy v0.1 %q list (%s) is superseded by sources (§13.1): move each item into sources as { id, resource, title } and cite it in the text with a footnote [^id]", strings.Repeat("#", h.Level)+" "+h.Text, items)
		}
	}
}
