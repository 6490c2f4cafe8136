package lint

import (
	"strings"

	"github.com/okf-tools/okf/okf"
)

// GeneratedByMissing reports a `generated` family without its REQUIRED `by` (§5.2), or one that is
// not a `{by, at}` mapping at all. Who wrote the content is half of what trust is derived from.
var GeneratedByMissing = &Rule{Code: "OKF301", Name: "generated-by-missing", Severity: okf.Warning, Spec: "§5.2", Decision: "D12", Scope: ScopeConcept,
	Title: "generated without by",
	Doc: "`generated.by` is REQUIRED within `generated` (§5.2): an actor (§7) naming who or what wrote the current " +
		"content. `generated` must be a `{by, at}` mapping.\n\n" +
		"Bad:\n\n    generated: { at: 2026-06-20T22:53:05Z }\n    generated: 2026-06-20\n\n" +
		"Good:\n\n    generated: { by: reference_agent/gemini-2.5-pro, at: 2026-06-20T22:53:05Z }",
	Check: checkGeneratedByMissing}

func checkGeneratedByMissing(p *Pass) {
	withFrontmatter(p.Bundle, func(c *okf.Concept, fm *okf.Frontmatter) {
		g := fm.Generated
		if g == nil {
			return
		}
		switch {
		case g.Kind != okf.Mapping:
			p.Reportf(at(g.Value, fileStart(c)), "generated must be a mapping { by, at }, found %s (§5.2)", g.Describe())
		case !g.By.Present():
			p.Reportf(at(g.Value, fileStart(c)), "generated has no by: add the actor that wrote the content, for example by: human:<id> or by: <agent>/<version> (§5.2)")
		case g.By.Kind != okf.Scalar || strings.TrimSpace(g.By.Raw) == "":
			p.Reportf(at(g.By, fileStart(c)), "generated.by is %s: name the actor that wrote the content, for example human:<id> (§5.2)", g.By.Describe())
		}
	})
}
