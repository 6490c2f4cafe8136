package lint

import (
	"strings"

	"github.com/okf-tools/okf/okf"
)

// RootRelativePath reports a bare relative path in a path-valued field that resolves only from the
// bundle root (D14: info). It works for okf, but "/path" says so explicitly and keeps working when
// the concept moves (§6.1 recommends the "/" form). Links have no such fallback (D15): a link that
// only works from the root is broken, and link-broken says to write the "/" form.
var RootRelativePath = &Rule{Code: "OKF602", Name: "root-relative-path", Severity: okf.Info, Spec: "§6.2", Decision: "D14", Scope: ScopeConcept,
	Fix: &Fixer{Make: fixRootRelative,
		Doc: "writes the bundle-relative form with a leading / that the path already resolves to (D14), keeping its quotes"},
	Title: "relative path that resolves only from the bundle root",
	Doc: "A bare relative path is tried from the concept's own directory first, then from the bundle root (D14). When " +
		"only the root works, write the bundle-relative form with a leading `/` (§6.1, §6.2). Links are not concerned: they are resolved " +
		"from their file's directory only (D15), see link-broken.\n\n" +
		"Bad (in computations/revenue.md):\n\n    executor:\n      resource: skills/run-on-bq.md\n\n" +
		"Good:\n\n    executor:\n      resource: /skills/run-on-bq.md",
	Check: checkRootRelativePath}

// suffixEscaper writes a decoded query or fragment back into a destination: what would end it or
// escape in it percent-encoded.
var suffixEscaper = strings.NewReplacer(" ", "%20", "(", "%28", ")", "%29", "<", "%3C", ">", "%3E", `\`, "%5C", "&", "%26")

// rootOnlyLink returns the root-relative form ("/x") of a link target that does not resolve from
// its file but does from the bundle root, else "".
func rootOnlyLink(b *okf.Bundle, target string) string {
	t := strings.TrimSpace(target)
	if t == "" || strings.HasPrefix(t, "/") || strings.HasPrefix(t, "#") || okf.IsURL(t) {
		return ""
	}
	r := b.ResolveLink("index.md", t) // as if written in a file at the root
	if r.Kind != okf.RefLocal || !r.Exists {
		return ""
	}
	suffix := "" // the query and fragment where a browser splits them (`a&#38;b.md` has none)
	if d := okf.DecodeLinkDestination(t); strings.ContainsAny(d, "#?") {
		suffix = suffixEscaper.Replace(d[strings.IndexAny(d, "#?"):])
	}
	dest := okf.LinkDestination("/" + r.Target)
	if strings.HasSuffix(dest, ">") { // in angle brackets: the fragment goes inside
		return dest[:len(dest)-1] + suffix + ">"
	}
	return dest + suffix
}

func checkRootRelativePath(p *Pass) {
	b := p.Bundle
	sc := p.buffers()
	buf := sc.paths[:0]
	defer func() { sc.paths = buf }()
	for _, c := range b.Concepts {
		buf = pathFields(buf, c.Frontmatter)
		for _, f := range buf {
			r := b.ResolvePath(c.Path, f.v.Raw)
			if r.RootOnly {
				p.Reportf(at(f.v, fileStart(c)), "%s %q does not exist next to this concept and resolves only from the bundle root: write %q (D14)", f.name(), f.v.Raw, "/"+r.Target)
			}
		}
	}
}
