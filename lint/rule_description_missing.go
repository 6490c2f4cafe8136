package lint

import "github.com/okf-tools/okf/okf"

// DescriptionMissing reports concepts without `description`, which index files, search snippets and
// previews are built from (§4.1, recommended: D1 info).
var DescriptionMissing = &Rule{Code: "OKF102", Name: "description-missing", Severity: okf.Info, Spec: "§4.1", Scope: ScopeConcept,
	Title: "concept without description",
	Doc: "`description` is a single sentence summarizing the concept (§4.1, recommended). index.md entries " +
		"SHOULD repeat it (§8), and agents use it to decide whether to open the file.\n\n" +
		"Bad:\n\n    ---\n    type: Metric\n    title: Revenue\n    ---\n\n" +
		"Good:\n\n    ---\n    type: Metric\n    title: Revenue\n    description: Recognized revenue for a fiscal year.\n    ---",
	Check: checkDescriptionMissing}

func checkDescriptionMissing(p *Pass) {
	withFrontmatter(p.Bundle, func(c *okf.Concept, fm *okf.Frontmatter) {
		if !fm.Description.Present() {
			p.Reportf(fileStart(c), "concept has no description: add a one-sentence summary for indexes and previews (§4.1)")
		}
	})
}
