package lint

import "github.com/okf-tools/okf/okf"

// HeadingMissing reports a concept whose body has text but no top-level `#` heading (info). §4.2
// asks for structural Markdown, and its conventional sections (`# Schema`, `# Examples`,
// `# Computation`) are level-1 headings; a body without one is hard to navigate and to chunk.
var HeadingMissing = &Rule{Code: "OKF110", Name: "heading-missing", Severity: okf.Info, Spec: "§4.2", Scope: ScopeConcept,
	Title: "concept body without a top-level # heading",
	Doc: "Producers SHOULD favor structural Markdown (§4.2), and the conventional sections (`# Schema`, `# Examples`, " +
		"`# Computation`) are level-1 headings. A body with no `#` heading at all (only prose, or only `##` headings) " +
		"gives readers and retrieval no structure to hold on to. An empty body is body-empty's finding.\n\n" +
		"Bad:\n\n    ---\n    type: BigQuery Table\n    ---\n    One row per order.\n\n" +
		"Good:\n\n    ---\n    type: BigQuery Table\n    ---\n    # Schema\n\n    One row per order.",
	Check: checkHeadingMissing}

func checkHeadingMissing(p *Pass) {
	withFrontmatter(p.Bundle, func(c *okf.Concept, fm *okf.Frontmatter) {
		if c.Body.Blank {
			return
		}
		for _, h := range c.Body.Headings {
			if h.Level == 1 {
				return
			}
		}
		p.Reportf(fileStart(c), "concept body has no top-level # heading: structure it under sections such as # Schema or # Examples (§4.2)")
	})
}
