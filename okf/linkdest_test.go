package okf

import (
	"math/rand/v2"
	"strings"
	"testing"
	"testing/fstest"
)

// TestDecodeDestination checks the decoding of a link destination as written against CommonMark's
// rules (spec 0.31, §2.4 backslash escapes, §2.5 entity and numeric character references), not
// against what the code printed: a renderer links `[x](a&amp;b.md)` to the file a&b.md.
func TestDecodeLinkDestination(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"plain.md", "plain.md"},
		{"a&amp;b.md", "a&b.md"},
		{`u\_s.md`, "u_s.md"},
		{`a\&amp;b.md`, "a&amp;b.md"}, // an escaped & starts no reference
		{`a\\_b.md`, `a\_b.md`},       // an escaped backslash, then a plain _
		{`a\b.md`, `a\b.md`},          // a backslash before a non-punctuation character stays
		{`end\`, `end\`},              // a trailing backslash stays
		{"a&#38;b.md", "a&b.md"},      // decimal
		{"a&#x26;b.md", "a&b.md"},     // hex
		{"a&#X26;b.md", "a&b.md"},     // hex, capital X
		{"&ouml;l.md", "öl.md"},       // a named entity
		{"a&b.md", "a&b.md"},          // no semicolon: no reference
		{"a&amp b.md", "a&amp b.md"},  // no semicolon
		{"a&nosuchentity;b.md", "a&nosuchentity;b.md"},
		{"a&#;b.md", "a&#;b.md"},                 // no digits
		{"a&#12345678;b.md", "a&#12345678;b.md"}, // eight decimal digits: not a reference
		{"a&#x1234567;b.md", "a&#x1234567;b.md"}, // seven hex digits: not a reference
		{"a&#0;b.md", "a\uFFFDb.md"},             // NUL is replaced
		{"a&#xD800;b.md", "a\uFFFDb.md"},         // a surrogate is replaced
		{"a&#x110000;b.md", "a\uFFFDb.md"},       // six hex digits, above U+10FFFF
		{"a&#1114112;b.md", "a\uFFFDb.md"},       // above U+10FFFF
		{"a&#35;b.md", "a#b.md"},
		{"&&amp;&", "&&&"},
	} {
		if got := DecodeLinkDestination(c.in); got != c.want {
			t.Errorf("DecodeLinkDestination(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

// TestResolveLinkDecodesReferences: a link written with an entity or a backslash escape leads to
// the file a renderer links it to, so it is not broken, and an index entry so written lists the
// concept (okf index used to drop such a hand-written entry as a deleted concept's).
func TestResolveLinkDecodesReferences(t *testing.T) {
	fsys := fstest.MapFS{"a&b.md": {}, "u_s.md": {}, "d/x y.md": {}}
	b, err := Load(fsys, LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ from, target, want string }{
		{"index.md", "a&amp;b.md", "a&b.md"},
		{"index.md", `u\_s.md`, "u_s.md"},
		{"index.md", "a&#38;b.md#frag", "a&b.md"},
		{"d/index.md", "x&#32;y.md", "d/x y.md"},
		{"index.md", "d/x%20y.md", "d/x y.md"},
	} {
		r := b.ResolveLink(c.from, c.target)
		if r.Kind != RefLocal || r.Target != c.want || !r.Exists {
			t.Errorf("ResolveLink(%q, %q) = %+v, want the existing %q", c.from, c.target, r, c.want)
		}
	}
	// A reference decoded to # starts the fragment, as in a renderer's href.
	if r := b.ResolveLink("index.md", "a&amp;b.md&#35;x"); r.Target != "a&b.md" || !r.Exists {
		t.Errorf("fragment after a decoded #: %+v", r)
	}
}

// TestDecodeDestinationLinear: a destination of many ampersands and long names costs one pass.
func TestDecodeLinkDestinationLinear(t *testing.T) {
	s := strings.Repeat("&"+strings.Repeat("a", 40), 50000) + strings.Repeat(`\a`, 100000)
	if got := DecodeLinkDestination(s); got != s {
		t.Fatalf("changed a destination with no reference")
	}
}

// TestLinkDestinationReadsBack: a link to a file, written by LinkDestination and read by the body
// parser and ResolveLink, leads to that file, for names made of everything that is special in a
// link destination (escapes, references, fragments, queries, percent signs, brackets, spaces,
// controls, separators, bidi controls, invalid UTF-8).
func TestLinkDestinationReadsBack(t *testing.T) {
	parts := []string{"a", "b", " ", "(", ")", "<", ">", "%", "%41", "#", "?", "&", "&amp;", "&#38;",
		"&#x41;", `\`, `\_`, `\\`, "\n", ":", "c:", "\u00a0", "\ufeff", "%zz", "%2", "\r", "\t", "\x1b", "\u2028", "\u202e", "\xff", "é", "[", "]", "*", "`", "!"}
	rng := rand.New(rand.NewPCG(1, 2))
	names := []string{"a&amp;b.md", `u\_s.md`, "x y.md", "h#1.md", "q?.md", "p%20.md", "a(b).md", `e\.md`,
		"c:x.md", "x:y:z.md", "mailto:x.md", "\u00a0nb.md", "nb\u00a0.md", "\ufeffbom.md", "a%zz.md", "a%2.md"}
	for range 3000 {
		var sb strings.Builder
		for range 1 + rng.IntN(6) {
			sb.WriteString(parts[rng.IntN(len(parts))])
		}
		names = append(names, sb.String()+".md")
	}
	for _, name := range names {
		checkReadsBack(t, name)
	}
}

func FuzzLinkDestination(f *testing.F) {
	for _, s := range []string{"a&amp;b.md", `u\_s.md`, "x y.md", "h#1.md", "<a>.md"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, name string) {
		if name == "" || strings.ContainsAny(name, "/\x00") || name == "." || name == ".." {
			return
		}
		checkReadsBack(t, name)
	})
}

func checkReadsBack(t *testing.T, name string) {
	t.Helper()
	dest := LinkDestination(name)
	if strings.ContainsAny(dest, "\r\n") {
		t.Fatalf("LinkDestination(%q) = %q holds a line break", name, dest)
	}
	if schemeLike(strings.TrimPrefix(dest, "<")) { // a browser would read a scheme
		t.Fatalf("LinkDestination(%q) = %q reads as a URL", name, dest)
	}
	files := nameSet{"d/" + name: true}
	body := ParseBody("d/index.md", []byte("[x]("+dest+")\n"), 0)
	if len(body.Links) != 1 {
		t.Fatalf("LinkDestination(%q) = %q: %d links read", name, dest, len(body.Links))
	}
	r := ResolveLink(files, "d/index.md", body.Links[0].Target)
	if r.Target != "d/"+name {
		t.Fatalf("LinkDestination(%q) = %q reads back as %q", name, dest, r.Target)
	}
}

// nameSet is a FileSet of files.
type nameSet map[string]bool

func (m nameSet) Stat(p string) (bool, bool) { return m[p], false }

// TestSplitLinkDestination: the parts of a destination are where a browser splits its href, after
// escapes and references are decoded; a `%` that starts no escape stays.
func TestSplitLinkDestination(t *testing.T) {
	for _, c := range []struct{ in, path, query, frag string }{
		{"b&#38;c.md", "b&c.md", "", ""},
		{`d.md#sec\_1`, "d.md", "", "sec_1"},
		{"a.md?x=1#f", "a.md", "x=1", "f"},
		{"a.md#f?x", "a.md", "", "f?x"},
		{"a&#35;b.md", "a", "", "b.md"},
		{" a.md ", "a.md", "", ""},
		{"\u00a0a.md", "\u00a0a.md", "", ""}, // a no-break space is no white space a renderer trims
	} {
		p, q, f := SplitLinkDestination(c.in)
		if p != c.path || q != c.query || f != c.frag {
			t.Errorf("SplitLinkDestination(%q) = %q, %q, %q; want %q, %q, %q", c.in, p, q, f, c.path, c.query, c.frag)
		}
	}
	for in, want := range map[string]string{"a%20b%zz.md": "a b%zz.md", "%": "%", "a%2": "a%2", "%41%4a%4A": "AJJ", "%e2%80%a8": "\u2028"} {
		if got := percentDecode(in); got != want {
			t.Errorf("percentDecode(%q) = %q, want %q", in, got, want)
		}
	}
}
