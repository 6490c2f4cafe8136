package lint

import (
	"strings"

	"github.com/okf-tools/okf/okf"
)

// SourceNeverCited reports a `sources[].id` that no footnote of the concept cites, in a concept that
// cites others of its sources by footnote (D16: info). There, attribution is claim by claim, and an
// id left out is a missing footnote or an id that can go. A concept that cites none of its sources
// is not reported: its `sources` are the provenance of the whole concept (§5.1), and the id, which
// §5.1 asks for only when the body cites the source, costs nothing (Google's own bundles write an id
// on every source and no footnote; the rule fired on every concept of them). Footnotes whose labels
// match no id are footnote-unknown-source's finding, which names the ids.
var SourceNeverCited = &Rule{Code: "OKF505", Name: "source-never-cited", Severity: okf.Info, Spec: "§5.1", Decision: "D16",
	Title: "sources id never cited where the other sources are",
	Doc: "A `sources[].id` is the key a footnote label joins on (§5.1). In a concept whose footnotes cite some of its " +
		"sources by id, a source no footnote `[^id]` cites has no claim attributed to it (D16): cite it where the " +
		"claim is made, or drop the id. A concept that cites none of its sources by footnote is not reported: its " +
		"sources are the concept's provenance as a whole, which §5.1 allows.\n\n" +
		"Bad:\n\n    sources:\n      - { id: rev-policy, resource: https://wiki.acme/finance/revenue }\n" +
		"      - { id: fpa, resource: https://wiki.acme/finance/fpa }\n    ---\n    Revenue is recognized on delivery.[^rev-policy]\n\n" +
		"    [^rev-policy]: Revenue recognition policy\n\n" +
		"Good:\n\n    Revenue is recognized on delivery,[^rev-policy] and reported monthly.[^fpa]\n\n" +
		"    [^rev-policy]: Revenue recognition policy\n    [^fpa]: FP&A handbook",
	Check: checkSourceNeverCited}

func checkSourceNeverCited(p *Pass) {
	withFrontmatter(p.Bundle, func(c *okf.Concept, fm *okf.Frontmatter) {
		if len(fm.Sources.Items) == 0 || len(c.Body.FootnoteRefs) == 0 {
			return
		}
		cited := make(map[string]bool, len(c.Body.FootnoteRefs))
		for _, r := range c.Body.FootnoteRefs {
			cited[r.Label] = true
		}
		citesASource := false
		for _, s := range fm.Sources.Items {
			if id := strings.TrimSpace(s.ID.Text()); id != "" && cited[id] {
				citesASource = true
				break
			}
		}
		if !citesASource {
			return // the sources are the concept's provenance as a whole (§5.1)
		}
		for i, s := range fm.Sources.Items {
			id := strings.TrimSpace(s.ID.Text())
			if id == "" || cited[id] {
				continue
			}
			p.Reportf(at(s.ID, fileStart(c)), "sources[%d].id %q is never cited where the concept's other sources are: attribute the claims it supports with [^%s], or remove the id (§5.1, D16)", i, id, id)
		}
	})
}
