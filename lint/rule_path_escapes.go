package lint

import "github.com/okf-tools/okf/okf"

// PathEscapes reports a path-valued field or a link that tries to leave the bundle root. Such a path
// is never opened (D14): a bundle is self-contained (§3), and a linter that followed it could read
// anything on the machine.
var PathEscapes = &Rule{Code: "OKF603", Name: "path-escapes", Severity: okf.Warning, Spec: "§6.2", Decision: "D14",
	Title: "path tries to leave the bundle",
	Doc: "Paths (`resource`, `sources[].resource`, `computation`, `executor.resource`, `attester.resource`) and links " +
		"are resolved inside the bundle (§6). One that climbs above the bundle root with `..` is never opened (D14).\n\n" +
		"Bad (in metrics/revenue.md):\n\n    attester:\n      resource: ../../shared/attesters/revenue.py\n\n" +
		"Good:\n\n    attester:\n      resource: /references/attesters/revenue.py",
	Check: checkPathEscapes}

func checkPathEscapes(p *Pass) {
	b := p.Bundle
	sc := p.buffers()
	buf := sc.paths[:0]
	defer func() { sc.paths = buf }()
	for i, c := range b.Concepts {
		buf = pathFields(buf, c.Frontmatter)
		for _, f := range buf {
			if b.ResolvePath(c.Path, f.v.Raw).Escapes {
				p.Reportf(at(f.v, fileStart(c)), "%s %q leaves the bundle root: it is never opened; keep the file inside the bundle and point at it from there (D14)", f.name(), f.v.Raw)
			}
		}
		for j, x := range p.conceptLinks(i) {
			if l := c.Body.Links[j]; x.local && x.r.Escapes {
				p.Reportf(l.Pos, "link target %q leaves the bundle root: it is never followed; link inside the bundle or use an absolute URL (§6.1, D14)", l.Target)
			}
		}
	}
}
