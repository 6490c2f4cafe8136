package lint

import "github.com/okf-tools/okf/okf"

// FootnoteUndefined reports a footnote reference `[^label]` with no `[^label]: …` definition anywhere
// in its file (D16: info, in any concept). Renderers show such a reference as literal text, and a
// reader has nothing to follow. Reported once per label and file, at its first reference.
var FootnoteUndefined = &Rule{Code: "OKF509", Name: "footnote-undefined", Severity: okf.Info, Spec: "§5.1", Decision: "D16", Scope: ScopeConcept,
	Title: "footnote reference without a definition",
	Doc: "A footnote reference `[^label]` needs a definition `[^label]: …` in the same file; without one, Markdown " +
		"renders the reference as plain text and the claim points nowhere (D16). This holds in every concept, with or " +
		"without `sources`.\n\n" +
		"Bad:\n\n    Revenue is recognized on delivery.[^rev-policy]\n\n" +
		"Good:\n\n    Revenue is recognized on delivery.[^rev-policy]\n\n    [^rev-policy]: Revenue recognition policy",
	Check: checkFootnoteUndefined}

func checkFootnoteUndefined(p *Pass) {
	for _, c := range p.Bundle.Concepts {
		var seen map[string]bool
		for _, r := range c.Body.FootnoteRefs {
			if r.Defined || seen[r.Label] {
				continue
			}
			if seen == nil {
				seen = map[string]bool{}
			}
			seen[r.Label] = true
			p.Reportf(r.Pos, "footnote [^%s] has no definition in this file: add a line [^%s]: … or remove the reference (D16)", r.Label, r.Label)
		}
	}
}
