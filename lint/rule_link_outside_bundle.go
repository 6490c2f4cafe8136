package lint

import "github.com/okf-tools/okf/okf"

// LinkOutsideBundle reports a body link that climbs above the bundle root. A bundle may be a folder
// of a larger repository (§3), and a link to that repository's README or licence is ordinary there;
// but a consumer given the bundle alone does not have the target, so for it the link is broken, which
// it must tolerate (§6.1). Info, as a broken link is (D15); okf never follows it.
var LinkOutsideBundle = &Rule{Code: "OKF607", Name: "link-outside-bundle", Severity: okf.Info, Spec: "§6.1", Decision: "D15", Scope: ScopeConcept,
	Title: "link to a file outside the bundle",
	Doc: "A bundle may be distributed as a subdirectory of a larger repository (§3), and a link such as `../README.md` " +
		"to the repository around it works in that checkout. A consumer given the bundle alone (a tarball, an index) " +
		"does not have the target, so there the link is broken, which consumers tolerate (§6.1, D15). okf never " +
		"follows it, and does not say whether the file exists. Use an absolute URL when the link must work everywhere, " +
		"or turn this rule off for a bundle that lives in a repository on purpose.\n\n" +
		"Bad (in the bundle root's overview.md):\n\n    See the [repository README](../README.md).\n\n" +
		"Good:\n\n    See the [repository README](https://github.com/acme/knowledge/blob/main/README.md).",
	Check: checkLinkOutsideBundle}

func checkLinkOutsideBundle(p *Pass) {
	b := p.Bundle
	for i, c := range b.Concepts {
		for j, x := range p.conceptLinks(i) {
			if l := c.Body.Links[j]; x.local && x.r.Escapes {
				p.Reportf(l.Pos, "link target %q leaves the bundle: it names a file outside the bundle root, which a consumer given the bundle alone does not have; okf does not follow it (§3, §6.1)", l.Target)
			}
		}
	}
}
