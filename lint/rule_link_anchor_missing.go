package lint

import (
	"net/url"
	"strconv"
	"strings"
	"unicode"

	"github.com/okf-tools/okf/okf"
)

// LinkAnchorMissing reports a local link `other.md#some-heading` whose target file exists but has no
// heading with that anchor (info). Anchors are derived from headings as GitHub does; the reader who
// follows the link lands at the top of the file instead of the section meant. Like a broken link
// (§6.1, D15), it is tolerated, never more than info.
var LinkAnchorMissing = &Rule{Code: "OKF605", Name: "link-anchor-missing", Severity: okf.Info, Spec: "§6.1", Decision: "D15", Scope: ScopeBundle, reads: []factRef{factHeadings, factFragments},
	Title: "link to a heading anchor the target file does not have",
	Doc: "A link may point into a Markdown file with a `#fragment`. The fragment names a heading by its anchor, derived " +
		"as GitHub does: the heading's text lowercased, punctuation removed except hyphens and underscores, each space " +
		"a hyphen, and a repeated anchor suffixed -1, -2, … in order. A fragment that matches no heading of an existing " +
		"target (compared without regard to case, read as a browser reads it: backslash escapes, character references and " +
		"%-escapes decoded) leaves the reader at the top of the file. Checked " +
		"for links in concepts and index.md files to concepts and index.md files, same-file `#fragment` links included; " +
		"anchors written as raw HTML are not seen.\n\n" +
		"Bad (tables/orders.md has `# Schema` and `# Joins`):\n\n    See [the join keys](/tables/orders.md#join-keys).\n\n" +
		"Good:\n\n    See [the join keys](/tables/orders.md#joins).",
	Check: checkLinkAnchorMissing}

func checkLinkAnchorMissing(p *Pass) {
	b := p.Bundle
	fragments := factFragments.all(p)
	// The links of index files with a fragment (a #, &#35; or &num; names one), and whether any
	// file has one at all: most bundles have none, and then no heading table is built.
	indexLinks := make([][]edge, len(b.Indexes))
	some := false
	for i, x := range b.Indexes {
		for _, l := range x.Body.Links {
			if !l.Image && strings.ContainsAny(l.Target, "#&") {
				indexLinks[i] = append(indexLinks[i], edge{target: l.Target, pos: l.Pos})
			}
		}
		some = some || len(indexLinks[i]) > 0
	}
	for _, frags := range fragments {
		some = some || len(frags) > 0
	}
	if !some {
		return
	}
	headings := make(map[string]headingTexts, len(b.Concepts)+len(b.Indexes)) // heading texts by file
	for i, h := range factHeadings.all(p) {
		headings[b.Concepts[i].Path] = h
	}
	for _, x := range b.Indexes {
		headings[x.Path] = joinHeadings(x.Body.Headings)
	}
	anchors := map[string]map[string]bool{} // built per target on first use
	anchorsOf := func(path string) map[string]bool {
		if a, ok := anchors[path]; ok {
			return a
		}
		h := headings[path]
		a := anchorsOf(h.len(), h.at)
		anchors[path] = a
		return a
	}
	check := func(from string, links []edge) {
		for _, l := range links {
			// Split where a browser splits the href: `#sec\_1` names sec_1, `b&#38;c.md` has none.
			path, query, frag := okf.SplitLinkDestination(l.target)
			if frag == "" {
				continue
			}
			target := from
			if path != "" || query != "" {
				r, local := resolveLocal(b, from, l.target)
				if !local || !r.Exists || r.IsDir || r.Escapes {
					continue // not local, or link-broken's finding
				}
				target = r.Target
			}
			if _, known := headings[target]; !known {
				continue // a log, a non-.md file: anchors not derived here
			}
			want := frag
			if d, err := url.PathUnescape(frag); err == nil {
				want = d
			}
			if anchorsOf(target)[strings.ToLower(want)] {
				continue
			}
			if target == from {
				p.Reportf(l.pos, "link %q names no heading of this file: the anchors here are derived from its headings, as GitHub does (§6.1)", l.target)
			} else {
				p.Reportf(l.pos, "link %q: %s has no heading with the anchor %q; anchors are derived from headings as GitHub does (§6.1)", l.target, target, want)
			}
		}
	}
	for i, frags := range fragments {
		check(b.Concepts[i].Path, frags)
	}
	for i, x := range b.Indexes {
		check(x.Path, indexLinks[i])
	}
}

// factHeadings: the concept's heading texts, in order, the anchors of links into it are derived
// from.
var factHeadings = &fact[headingTexts]{name: "headings", doc: "the texts of the concept's headings, in order",
	of: func(in *factInput) headingTexts { return joinHeadings(in.body.Headings) }}

// factFragments: the concept's links with a #fragment, as written, whose anchors are checked.
var factFragments = &fact[[]edge]{name: "fragments", doc: "the concept's body links with a #fragment (images left out), as written",
	of: func(in *factInput) []edge {
		isFrag := func(l okf.Link) bool {
			if l.Image || !strings.ContainsAny(l.Target, "#&") { // no fragment without a #, &#35; or &num;
				return false
			}
			_, _, frag := okf.SplitLinkDestination(l.Target)
			return frag != ""
		}
		n := 0 // kept to the end of the run: counted first, made at its length
		for _, l := range in.body.Links {
			if isFrag(l) {
				n++
			}
		}
		if n == 0 {
			return nil
		}
		out := make([]edge, 0, n)
		for _, l := range in.body.Links {
			if isFrag(l) {
				out = append(out, edge{target: l.Target, pos: l.Pos})
			}
		}
		return out
	}}

// edge is a link with a #fragment, its target as written.
type edge struct {
	target string
	pos    okf.Position
}

// headingTexts are a file's heading texts, in order, in one string: the text of heading i is
// all[ends[i-1]:ends[i]]. A large bundle keeps them for every concept until the end of the run,
// where one string and an offset a heading cost far less than a string each.
type headingTexts struct {
	all  string
	ends []int
}

func (h headingTexts) len() int { return len(h.ends) }

func (h headingTexts) at(i int) string {
	start := 0
	if i > 0 {
		start = h.ends[i-1]
	}
	return h.all[start:h.ends[i]]
}

// joinHeadings packs the texts of hs, nil-like when there are none.
func joinHeadings(hs []okf.Heading) headingTexts {
	if len(hs) == 0 {
		return headingTexts{}
	}
	n := 0
	for _, h := range hs {
		n += len(h.Text)
	}
	var sb strings.Builder
	sb.Grow(n)
	ends := make([]int, len(hs))
	for i, h := range hs {
		sb.WriteString(h.Text)
		ends[i] = sb.Len()
	}
	return headingTexts{all: sb.String(), ends: ends}
}

// headingAnchors returns the anchors GitHub gives a file's headings, lowercased. A repeated anchor
// gets the first free suffix -1, -2, … (github-slugger's loop, so "A", "A-1", "A" gives a, a-1, a-2).
func headingAnchors(hs []string) map[string]bool {
	return anchorsOf(len(hs), func(i int) string { return hs[i] })
}

// anchorsOf is headingAnchors of the n texts text(0), text(1), …
func anchorsOf(n int, text func(int) string) map[string]bool {
	taken := make(map[string]int, n)
	for i := range n {
		base := headingSlug(text(i))
		a := base
		for {
			if _, dup := taken[a]; !dup {
				break
			}
			taken[base]++
			a = base + "-" + strconv.Itoa(taken[base])
		}
		taken[a] = 0
	}
	out := make(map[string]bool, len(taken))
	for a := range taken {
		out[a] = true
	}
	return out
}

// headingSlug is GitHub's anchor for a heading text (github-slugger): lowercase, every character
// that is not a letter, digit, mark, hyphen, underscore or space removed, and each space a hyphen.
func headingSlug(text string) string {
	var sb strings.Builder
	for _, r := range strings.ToLower(strings.TrimSpace(text)) {
		switch {
		case r == ' ':
			sb.WriteByte('-')
		case r == '-' || r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.Is(unicode.M, r):
			sb.WriteRune(r)
		}
	}
	return sb.String()
}
