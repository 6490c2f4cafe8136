package lint

import (
	"strings"

	"github.com/okf-tools/okf/okf"
)

// SourceNeverCited reports a `sources[].id` that no footnote of the concept cites (D16: info). An
// id exists to attribute claims (§5.1); one that attributes nothing is either a missing footnote or
// an id that can go.
var SourceNeverCited = &Rule{Code: "OKF505", Name: "source-never-cited", Severity: okf.Info, Spec: "§5.1", Decision: "D16", Scope: ScopeConcept,
	Title: "sources id never cited by a footnote",
	Doc: "A `sources[].id` is the key a footnote label joins on (§5.1). When no footnote `[^id]` in the body cites it, " +
		"no claim is attributed to that source (D16). Cite it where the claim is made, or drop the id.\n\n" +
		"Bad:\n\n    sources:\n      - { id: rev-policy, resource: https://wiki.acme/finance/revenue }\n    ---\n    Revenue is recognized on delivery.\n\n" +
		"Good:\n\n    Revenue is recognized on delivery.[^rev-policy]\n\n    [^rev-policy]: Revenue recognition policy",
	Check: checkSourceNeverCited}

func checkSourceNeverCited(p *Pass) {
	withFrontmatter(p.Bundle, func(c *okf.Concept, fm *okf.Frontmatter) {
		if len(fm.Sources.Items) == 0 {
			return
		}
		cited := make(map[string]bool, len(c.Body.FootnoteRefs))
		for _, r := range c.Body.FootnoteRefs {
			cited[r.Label] = true
		}
		for i, s := range fm.Sources.Items {
			id := strings.TrimSpace(s.ID.Text())
			if id == "" || cited[id] {
				continue
			}
			p.Reportf(at(s.ID, fileStart(c)), "sources[%d].id %q is never cited: attribute the claims it supports with [^%s], or remove the id (§5.1, D16)", i, id, id)
		}
	})
}
