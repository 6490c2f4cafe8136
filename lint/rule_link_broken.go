package lint

import (
	"strings"

	"github.com/okf-tools/okf/okf"
)

// LinkBroken reports a local link whose target does not exist in the bundle. Consumers MUST tolerate
// broken links (§6.1), which may be knowledge not yet written, so it is never more than info (D15).
var LinkBroken = &Rule{Code: "OKF601", Name: "link-broken", Severity: okf.Info, Spec: "§6.1", Decision: "D15", Scope: ScopeConcept,
	Title: "link to a file that does not exist",
	Doc: "A link whose target does not exist is not malformed (§6.1): it may be knowledge not yet written. okf checks " +
		"local targets only, read as a renderer reads them (backslash escapes and character references such as `&amp;` " +
		"decoded, then `#fragment` and `?query` stripped and percent-escapes decoded); links to existing folders, index.md files and " +
		"non-.md files are valid (D15). A link into a hidden file or folder (a name starting with `.`) is reported as " +
		"hidden: such files are not part of the bundle (D5). A link is resolved from its file's directory, as Markdown renderers do; when " +
		"the target exists from the bundle root instead, the message says to write the `/path` form.\n\n" +
		"Bad:\n\n    Joined with [customers](/tables/customer.md).\n\n" +
		"Good:\n\n    Joined with [customers](/tables/customers.md).",
	Check: checkLinkBroken}

// hiddenReason says why a resolved target is not part of the bundle when one of its segments is
// hidden (D5): okf skips such files while loading, so it cannot say they do not exist, only that
// the bundle does not hold them. "" when no segment is hidden.
func hiddenReason(target string) string {
	for _, seg := range strings.Split(target, "/") {
		if len(seg) > 1 && seg[0] == '.' && seg != ".." {
			return quote(seg) + " starts with \".\", and hidden files and folders are not part of the bundle (D5)"
		}
	}
	return ""
}

func checkLinkBroken(p *Pass) {
	b := p.Bundle
	for i, c := range b.Concepts {
		for j, x := range p.conceptLinks(i) {
			l, r, local := c.Body.Links[j], x.r, x.local
			if !local || r.Exists || r.Escapes {
				continue
			}
			if why := hiddenReason(r.Target); why != "" {
				p.Reportf(l.Pos, "link target %q is hidden: %s; okf does not check it (§6.1)", l.Target, why)
				continue
			}
			if fix := rootOnlyLink(b, l.Target); fix != "" {
				p.Reportf(l.Pos, "link target %q does not exist next to this file but does from the bundle root: write %q (§6.1, D15)", l.Target, fix)
				continue
			}
			p.Reportf(l.Pos, "link target %q does not exist in the bundle (looked for %q): fix it, or leave it if the concept is yet to be written (§6.1)", l.Target, "/"+r.Target)
		}
	}
}
