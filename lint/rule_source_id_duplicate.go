package lint

import (
	"strings"

	"github.com/okf-tools/okf/okf"
)

// SourceIDDuplicate reports two `sources` entries of one concept with the same `id`. The id is the
// join key of per-claim attribution (§5.1): a footnote citing it cannot tell the two apart.
var SourceIDDuplicate = &Rule{Code: "OKF503", Name: "source-id-duplicate", Severity: okf.Warning, Spec: "§5.1", Decision: "D16", Scope: ScopeConcept,
	Title: "duplicate sources id",
	Doc: "A `sources[].id` is the stable key a footnote label joins on (§5.1). Two entries with one id make every " +
		"footnote citing it ambiguous.\n\n" +
		"Bad:\n\n    sources:\n      - { id: docs, resource: https://a.example/schema }\n      - { id: docs, resource: https://b.example/faq }\n\n" +
		"Good:\n\n    sources:\n      - { id: schema-docs, resource: https://a.example/schema }\n      - { id: faq, resource: https://b.example/faq }",
	Check: checkSourceIDDuplicate}

func checkSourceIDDuplicate(p *Pass) {
	withFrontmatter(p.Bundle, func(c *okf.Concept, fm *okf.Frontmatter) {
		first := make(map[string]int, len(fm.Sources.Items))
		for i, s := range fm.Sources.Items {
			if s.ID.Kind != okf.Scalar || strings.TrimSpace(s.ID.Raw) == "" {
				continue
			}
			id := strings.TrimSpace(s.ID.Raw)
			if j, dup := first[id]; dup {
				p.Reportf(at(s.ID, fileStart(c)), "sources[%d].id %q is already used by sources[%d]: footnotes citing it are ambiguous; give each source its own id (§5.1)", i, id, j)
				continue
			}
			first[id] = i
		}
	})
}
