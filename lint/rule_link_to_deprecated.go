package lint

import "github.com/okf-tools/okf/okf"

// LinkToDeprecated reports a link from a current concept (draft or stable) to a deprecated one. A
// deprecated concept is "kept for links and history; no longer current" (§5.4): current knowledge
// should point at its replacement. Convention (D1: info).
var LinkToDeprecated = &Rule{Code: "OKF404", Name: "link-to-deprecated", Severity: okf.Info, Spec: "§5.4", Decision: "D13", Scope: ScopeBundle, reads: []factRef{factDeprecated, factEdges},
	Title: "current concept links to a deprecated one",
	Doc: "A `deprecated` concept is kept for links and history and is no longer current (§5.4). A draft or stable " +
		"concept that links to it leads readers and agents to outdated knowledge. Link to the current concept " +
		"instead. Links from deprecated concepts are not reported.\n\n" +
		"Bad (metrics/gross-margin-legacy.md has status: deprecated):\n\n    See [gross margin](/metrics/gross-margin-legacy.md).\n\n" +
		"Good:\n\n    See [gross margin](/metrics/gross-margin.md).",
	Check: checkLinkToDeprecated}

func checkLinkToDeprecated(p *Pass) {
	deprecated := factDeprecated.all(p)
	for i, edges := range factEdges.all(p) {
		if deprecated[i] {
			continue
		}
		for k, e := range edges.to {
			if t := conceptIndex(p.Bundle, e.target); t >= 0 && deprecated[t] {
				p.Reportf(edges.at(k, p.Bundle.Concepts[i].Path), "link to deprecated concept %q: point it at the concept that replaces it (§5.4)", "/"+e.target)
			}
		}
	}
}

// factDeprecated: `status: deprecated`, of the concept that links and of the one linked to.
var factDeprecated = &fact[bool]{name: "deprecated", doc: "whether the concept's `status` is deprecated",
	of: func(in *factInput) bool {
		s, _ := okf.StatusOf(in.fm.Status)
		return s == okf.Deprecated
	}}
