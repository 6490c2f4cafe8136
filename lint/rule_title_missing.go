package lint

import "github.com/okf-tools/okf/okf"

// TitleMissing reports concepts without `title`. The spec recommends it (§4.1) and lets consumers
// fall back to the filename, so this is hygiene (D1: info).
var TitleMissing = &Rule{Code: "OKF101", Name: "title-missing", Severity: okf.Info, Spec: "§4.1", Scope: ScopeConcept,
	Title: "concept without title",
	Doc: "`title` is the human-readable display name (§4.1, recommended). Without it, index generators and " +
		"previews fall back to the filename.\n\n" +
		"Bad:\n\n    ---\n    type: BigQuery Table\n    ---\n\n" +
		"Good:\n\n    ---\n    type: BigQuery Table\n    title: Customer Orders\n    ---",
	Check: checkTitleMissing}

func checkTitleMissing(p *Pass) {
	withFrontmatter(p.Bundle, func(c *okf.Concept, fm *okf.Frontmatter) {
		if !fm.Title.Present() {
			p.Reportf(fileStart(c), "concept has no title: add a title, the display name consumers show (§4.1)")
		}
	})
}
