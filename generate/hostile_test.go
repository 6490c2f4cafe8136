package generate

import (
	"fmt"
	"reflect"
	"strings"
	"testing"
)

// work runs f with countWork set and returns the bytes and steps it counted.
func work(f func()) int {
	n := 0
	countWork = &n
	defer func() { countWork = nil }()
	f()
	return n
}

// repeatN is n copies of a pattern, each with its own number where it has %d.
func repeatN(p string, n int) string {
	var b strings.Builder
	for i := range n {
		if strings.Contains(p, "%d") {
			fmt.Fprintf(&b, p, i)
		} else {
			b.WriteString(p)
		}
	}
	return b.String()
}

// TestStripCalloutsLinear: opening tags that each look for a closing tag of their own name cost
// about the same per byte at 2,000 and at 16,000 tags. Counted in bytes and steps, not timed:
// each opening tag of a new name used to search the whole rest of the post for its closing tag
// (a 1 MB post of <note-0><note-1>… took 30 CPU-seconds).
func TestStripCalloutsLinear(t *testing.T) {
	for _, c := range []struct{ open, tail string }{
		{"<note-%d>", ""},                     // distinct names, never closed
		{"<note-%d>x", "</note-%d>"},          // distinct names, all closed at the end
		{"<tip-%d a='b'>", "</tip-x>"},        // with attributes; a closer of another name
		{"<note>", ""},                        // one name, never closed
		{"<note>", "</note>"},                 // nested n deep
		{"<Details>x</Details><note-%d>", ""}, // closed blocks between unclosed ones
		{"<aside-%d/>", "</aside-%d>"},        // self-closing: never looked up
	} {
		mk := func(n int) string { return "Hello.\n\n" + repeatN(c.open, n) + repeatN(c.tail, n) }
		small, large := mk(2000), mk(16000)
		if got, want := stripCallouts(small), refStripCallouts(small); got != want {
			t.Errorf("stripCallouts(%q × 2000 + %q × 2000) differs from before", c.open, c.tail)
		}
		ws := work(func() { stripCallouts(small) })
		wl := work(func() { stripCallouts(large) })
		if ws > 0 && float64(wl)/float64(ws) > 8*1.5 {
			t.Errorf("stripCallouts(%q…%q): %d at 2,000 tags, %d at 16,000: not linear", c.open, c.tail, ws, wl)
		}
		if wl > 8*len(large) {
			t.Errorf("stripCallouts(%q…%q): %d bytes and steps for %d bytes", c.open, c.tail, wl, len(large))
		}
	}
}

// calloutAlphabet: the pieces stripCallouts turns on, in the cases the regular expression
// folds (ſ and K fold to s and k).
var calloutAlphabet = []string{"<note>", "</note>", "<note ", "<Note>", "</Note>", "<note-a>", "</note-a>", "<note-a ",
	"<details>", "</details>", "<detailſ>", "</detailſ>", "<tip-k>", "</tip-K>", "</tip-k>", "<note/>", "<note x/>",
	"<note x='>'>", "<note\t", "<aside-", "-", "<", ">", "/", " ", "note", "a", "\n", "x", "é", "\xff", "<<", "</", "<script>", "</script>"}

// TestStripCalloutsMatchesReference: stripCallouts gives what it gave before its closing tags
// were indexed (hostile_ref_test.go), on random texts of the pieces it turns on (a fixed seed).
func TestStripCalloutsMatchesReference(t *testing.T) {
	randomTexts(7, 30000, 16, calloutAlphabet, func(s string) {
		if got, want := stripCallouts(s), refStripCallouts(s); got != want {
			t.Fatalf("stripCallouts(%q) = %q, before %q", s, got, want)
		}
	})
}

// TestFirstSentenceLinear: a run of end marks that does not end a sentence ("a....x") costs
// about the same per byte at 16 KiB and at 256 KiB. Each mark used to walk the rest of the run.
func TestFirstSentenceLinear(t *testing.T) {
	for _, p := range []string{".", "!?", "?!.", ".)", ".”", "!’", `."`} {
		mk := func(n int) string { return "a" + strings.Repeat(p, n/len(p)) + "x" }
		small, large := mk(16<<10), mk(256<<10)
		ws := work(func() { FirstSentence(small) })
		wl := work(func() { FirstSentence(large) })
		if ws > 0 && float64(wl)/float64(ws) > 16*1.5 {
			t.Errorf("FirstSentence(a %q × n x): %d steps at 16 KiB, %d at 256 KiB: not linear", p, ws, wl)
		}
		if wl > 4*len(large) {
			t.Errorf("FirstSentence(a %q × n x): %d steps for %d bytes", p, wl, len(large))
		}
	}
}

// TestFirstSentenceCurlyQuotes: a closing curly quote after the end mark belongs to the sentence,
// as a straight one does.
func TestFirstSentenceCurlyQuotes(t *testing.T) {
	for in, want := range map[string]string{
		`He said “Stop.” Then he left.`: `He said “Stop.”`,
		`It is ‘done.’ Next one.`:       `It is ‘done.’`,
		`He said "Stop." Then he left.`: `He said "Stop."`,
		`Really?!” she asked. Yes.`:     `Really?!”`,
		`(See “Notes.”) More here.`:     `(See “Notes.”)`,
		`“Stop.”x and then. More.`:      `“Stop.”x and then.`,
		`Price 3.5’ wide. Second.`:      `Price 3.5’ wide.`,
		`Ends with a quote.”`:           `Ends with a quote.”`,
	} {
		if got := FirstSentence(in); got != want {
			t.Errorf("FirstSentence(%q) = %q, want %q", in, got, want)
		}
	}
}

// firstSentenceAlphabet: what FirstSentence turns on.
var firstSentenceAlphabet = []string{".", ".", "!", "?", ")", `"`, "'", "’", "”", " ", " ", "a", "A", "e.g.", "etc.", "J.", "3", "。",
	"！", "\xe2\x80", "\xff", "\n", "(", "Mr."}

// TestFirstSentenceMatchesReference: FirstSentence gives what it gave before it stepped over runs
// of end marks (hostile_ref_test.go), except where a closing curly quote now ends the sentence.
func TestFirstSentenceMatchesReference(t *testing.T) {
	randomTexts(11, 50000, 14, firstSentenceAlphabet, func(s string) {
		got, want := FirstSentence(s), refFirstSentence(s)
		if got != want && !strings.ContainsAny(s, "’”") {
			t.Fatalf("FirstSentence(%q) = %q, before %q", s, got, want)
		}
	})
}

// TestStripMDXLoneCR: a lone carriage return (old Mac line ends) ends a line, as \n and \r\n do.
func TestStripMDXLoneCR(t *testing.T) {
	for _, nl := range []string{"\r", "\r\n", "\n"} {
		s := strings.ReplaceAll("# One\nText one.\n\n## Two\nText two.\n\n```\ncode\n```\n- item\n", "\n", nl)
		out := StripMDX(s, false)
		if got, want := Outline(out), []OutlineItem{{1, "One"}, {2, "Two"}}; !reflect.DeepEqual(got, want) {
			t.Errorf("Outline(StripMDX(%q)) = %v, want %v", s, got, want)
		}
		if got, want := Paragraphs(out), []string{"Text one.", "Text two."}; !reflect.DeepEqual(got, want) {
			t.Errorf("Paragraphs(StripMDX(%q)) = %q, want %q", s, got, want)
		}
		if strings.Contains(out, "\r") {
			t.Errorf("StripMDX(%q) = %q: a carriage return is left", s, out)
		}
	}
}

// TestFlattenKeepsPrivateUse: private-use characters in the text are kept as they are, though
// Flatten hides escaped punctuation as private-use characters while it works.
func TestFlattenKeepsPrivateUse(t *testing.T) {
	for in, want := range map[string]string{
		"**a\ue12a\ue12a":          "**a\ue12a\ue12a",
		"a\ue12ab":                 "a\ue12ab",
		"x \ue15b\ue15dy":          "x \ue15b\ue15dy",
		"\ue180\ue12a \ue180":      "\ue180\ue12a \ue180",
		"\ue17f\ue100\ue0ff\ue181": "\ue17f\ue100\ue0ff\ue181",
		"\\*a\ue12a\\* **b**":      "*a\ue12a* b",
		"\\\ue12a *a*":             "\\\ue12a a",
		"[\ue15d](x) \ue180":       "\ue15d \ue180",
	} {
		if got := Flatten(in); got != want {
			t.Errorf("Flatten(%q) = %q, want %q", in, got, want)
		}
	}
}

// sameSlugPosts is n posts in the posts folder that all have the slug x, and one more whose slug is
// x-2.
func sameSlugPosts(n int) *Posts {
	ps := &Posts{}
	for i := range n {
		ps.List = append(ps.List, &Post{Path: fmt.Sprintf("p%05d.md", i), Slug: "x", URLPath: "x", HasFrontmatter: true})
	}
	ps.List = append(ps.List, &Post{Path: "q.md", Slug: "x-2", URLPath: "x-2", HasFrontmatter: true})
	ps.reindex()
	return ps
}

// TestAllNamesSameSlug: posts that share a slug are named x, x-3, x-4, … in path order when x-2
// is another post's own slug, and naming them costs about the same per post at 1,000 and 8,000
// posts (each used to count every post of its slug and try every number taken before it).
func TestAllNamesSameSlug(t *testing.T) {
	names := sameSlugPosts(4).AllNames()
	want := map[string]string{"x": "p00000.md", "x-3": "p00001.md", "x-4": "p00002.md", "x-5": "p00003.md", "x-2": "q.md"}
	if !reflect.DeepEqual(names, want) {
		t.Errorf("AllNames() = %v, want %v", names, want)
	}
	small, large := sameSlugPosts(1000), sameSlugPosts(8000)
	ws := work(func() { small.AllNames() })
	wl := work(func() { large.AllNames() })
	if ws > 0 && float64(wl)/float64(ws) > 8*1.5 {
		t.Errorf("AllNames: %d steps for 1,000 posts of one slug, %d for 8,000: not linear", ws, wl)
	}
}
