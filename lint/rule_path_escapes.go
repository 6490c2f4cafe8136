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
