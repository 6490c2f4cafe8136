package lint

import "github.com/okf-tools/okf/okf"

// PathEscapes reports a path-valued field that tries to leave the bundle root. Such a path is never
// opened (D14): a bundle is self-contained (§3), and a linter, runner or attester that followed it
// could read or run anything on the machine. Links that leave the bundle are link-outside-bundle's
// finding: a link only names a page, and one to the repository around the bundle is ordinary.
var PathEscapes = &Rule{Code: "OKF603", Name: "path-escapes", Severity: okf.Warning, Spec: "§6.2", Decision: "D14", Scope: ScopeConcept,
	Title: "path tries to leave the bundle",
	Doc: "Paths (`resource`, `sources[].resource`, `computation`, `executor.resource`, `attester.resource`) are " +
		"resolved inside the bundle (§6.2). One that climbs above the bundle root with `..` is never opened (D14): " +
		"a consumer given the bundle alone does not have the file, and one that followed the path could read or run " +
		"anything. Links that leave the bundle are link-outside-bundle (OKF607).\n\n" +
		"Bad (in metrics/revenue.md):\n\n    attester:\n      resource: ../../shared/attesters/revenue.py\n\n" +
		"Good:\n\n    attester:\n      resource: /references/attesters/revenue.py",
	Check: checkPathEscapes}

func checkPathEscapes(p *Pass) {
	b := p.Bundle
	sc := p.buffers()
	buf := sc.paths[:0]
	defer func() { sc.paths = buf }()
	for _, c := range b.Concepts {
		buf = pathFields(buf, c.Frontmatter)
		for _, f := range buf {
			if b.ResolvePath(c.Path, f.v.Raw).Escapes {
				p.Reportf(at(f.v, fileStart(c)), "%s %q leaves the bundle root: it is never opened; keep the file inside the bundle and point at it from there (D14)", f.name(), f.v.Raw)
			}
		}
	}
}

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
