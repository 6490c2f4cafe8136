package lint

import "github.com/okf-tools/okf/okf"

// BodyEmpty reports a concept whose body holds nothing but whitespace (info). The frontmatter says
// what the concept is; the body is where the knowledge goes (§4.2), and an empty one gives a reader
// or an agent nothing past the description.
var BodyEmpty = &Rule{Code: "OKF109", Name: "body-empty", Severity: okf.Info, Spec: "§4.2", Scope: ScopeConcept,
	Title: "concept with an empty body",
	Doc: "The body is where a concept's knowledge is written, in structural Markdown (§4.2). A concept with only " +
		"frontmatter tells a reader nothing past its description: write what is known, or leave the concept out " +
		"until there is something to say.\n\n" +
		"Bad:\n\n    ---\n    type: Metric\n    title: Revenue\n    ---\n\n" +
		"Good:\n\n    ---\n    type: Metric\n    title: Revenue\n    ---\n    # Definition\n\n    Recognized revenue, net of refunds.",
	Check: checkBodyEmpty}

func checkBodyEmpty(p *Pass) {
	withFrontmatter(p.Bundle, func(c *okf.Concept, fm *okf.Frontmatter) {
		if c.Body.Blank {
			p.Reportf(fileStart(c), "concept has an empty body: write what is known about it below the frontmatter (§4.2)")
		}
	})
}
