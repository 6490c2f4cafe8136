package lint

import "github.com/okf-tools/okf/okf"

// SelfLink reports a link from a concept to its own file. It adds a self-loop to the bundle graph
// (§6.1: every link is an edge) and takes the reader nowhere. Convention (D1: info).
var SelfLink = &Rule{Code: "OKF604", Name: "self-link", Severity: okf.Info, Decision: "D15", Scope: ScopeConcept,
	Title: "concept links to itself",
	Doc: "Consumers that build a graph treat every link as a directed edge (§6.1); a link to the concept's own file is " +
		"a self-loop. To point at a section of the same document, use a fragment only.\n\n" +
		"Bad (in tables/orders.md):\n\n    See [the schema](/tables/orders.md#schema).\n\n" +
		"Good:\n\n    See [the schema](#schema).",
	Check: checkSelfLink}

func checkSelfLink(p *Pass) {
	b := p.Bundle
	for i, c := range b.Concepts {
		for j, x := range p.conceptLinks(i) {
			if l := c.Body.Links[j]; x.local && x.r.Target == c.Path {
				p.Reportf(l.Pos, "link target %q is this concept itself: link to a section with a fragment such as #schema, or remove the link", l.Target)
			}
		}
	}
}
