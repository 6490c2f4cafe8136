package okf

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// indexesOf parses the index body (after a frontmatter, so that positions are shifted into the
// file as the loader's are) with the fast path and with goldmark's tree. ok is false when the fast
// path refused it.
func indexesOf(body string) (fast, tree *Index, ok bool) {
	const prefix = "---\ntype: Index\n---\n"
	file := []byte(prefix + body)
	li := newLineIndex(file)
	p := &bodyParser{path: "d/index.md", src: file[len(prefix):], offset: len(prefix), lines: li}
	tree = p.treeIndex()
	b, sections, ok := p.fastRead(true)
	if ok {
		fast = &Index{Path: "d/index.md", Sections: sections, Body: b}
	}
	return fast, tree, ok
}

// checkIndex fails t when the fast path takes body and reads it differently from goldmark.
func checkIndex(t testing.TB, body string) bool {
	t.Helper()
	fast, tree, ok := indexesOf(body)
	if ok && !reflect.DeepEqual(fast, tree) {
		t.Fatalf("%q:\nfast %s\ntree %s", body, dumpIndex(fast), dumpIndex(tree))
	}
	return ok
}

func dumpIndex(x *Index) string {
	return fmt.Sprintf("%+v\n  body %s", x.Sections, dumpBody(x.Body))
}

// indexSeeds are index bodies in the subset, written as people and generators write them: the
// fast path must take each one.
var indexSeeds = []string{
	"",
	"# Reference\n\n* [Accepted Answer Rate](accepted_answer_rate.md) - The proportion of questions that have an accepted answer.\n* [Ratio](r.md) - Calculates the ratio (VoteTypeId 4 and 12) to overall votes/flags.\n",
	"# Reference\n\n* [A ↔ B Join](a__b.md) - Join path between the post_links and posts tables.\n\n# Subdirectories\n\n* [joins](joins/index.md) - This directory contains join paths.\n",
	"# Orders\n\n- [Order](order.md) — an order.\n- [Line](line.md): a line.\n- [Refund](refund.md) – a refund\n- [Bare](bare.md)\n- [Spaced](s.md)   -   spaced  \n",
	"Intro text.\n\n- [Before any heading](x.md) - first\n\n## [Linked heading](sub/index.md)\n\n1. [One](one.md) - ordered\n2) [Two](two.md)\n",
	"# Index\n\n- plain item\n- ![img](i.png) - an image first\n- [literal] text\n- text then [a link](l.md)\n- [`code`](c.md) - code title\n",
	"# A\n\n- [a](a.md) - x\n\n# B\n\n# C\n\n- [c](c.md) - y\n",
	"# AI SDKs\n\n- [SDK (`@a/sdk`)](sdk.md) - The API (`client.messages.create` with a `messages` array) is the API.\n- [V](v.md) - v5 split `UIMessage` (UI state) versus `ModelMessage`.\n",
}

// indexNearMisses are index bodies just outside the subset or at its edge; the fast path may take
// any of them only if it reads them as goldmark does.
var indexNearMisses = []string{
	"# A\n\n- [a](a.md) - x\n\n# B\n\n# C\n\n- [c](c.md) - y [z](z.md) is not read\n",
	"- [a](b.md) - *em* desc\n", "- [a](b.md) - x (`c`) y `d` z\n", "- [a](b.md) - `` a ` b `` c\n", "- [a](b.md) - ` x ` y\n", "- [a](b.md) - `\tx` y\n", "- [a](b.md) - a ` b\n", "- [a](b.md) -`c`\n", "- [a](b.md) - `c`_x\n", "- [a](b.md) - ` `\n", "- [a](b.md) - `code` desc\n", "- [a](b.md) - _u_ desc\n", "- [a](b.md) - a_b desc\n",
	"- [a](b.md) - x _a_b\n", "- [a](b.md)_x\n", "- [a](b.md) x_\n", "- [a](b.md) - see [c](d.md)\n", "- [a](b.md) - x ! y\n", "- [a](b.md) - wow!\n",
	"- [a](b.md) - x ] y\n", "- [a](b.md) - <http://x> y\n", "- [a](b.md) - x \\- y\n", "- [a](b.md) —— y\n", "- [a](b.md) -:– y\n",
	"- [a](b.md)\n  - [nested](n.md) - nested\n", "- [a](b.md)\n    - [nested](n.md)\n", "- text [a](b.md) - starts with text\n",
	"## [Heading](h.md) with link\n- [a](b.md)\n", "Setext\n======\n- [a](b.md)\n", "Setext\n---\n- [a](b.md)\n",
	"- [a](b.md) - desc\nlazy line\n", "- [a](b.md) - desc\n  continued\n", "- [a](b.md)\n\n- [c](d.md)\n", "- [a](b.md)\n\n  para\n",
	"* [a](b.md)\n- [c](d.md)\n", "1. [a](b.md)\n3. [c](d.md)\n", "para\n- [a](b.md)\n", "para\n2. [a](b.md)\n",
	"> - [a](b.md)\n", "> quote\n\n- [a](b.md)\n", "[^1]: note\n- [a](b.md)\n", "- [a](b.md)[^1]\n\n[^1]: n\n", "- [^1] x\n",
	"- [a](b.md \"title\")\n", "- [a](<b c.md>)\n", "- [a][r]\n\n[r]: x.md\n", "- [a]\n", "- [a] (b.md)\n", "- [](b.md) - empty\n",
	"- [a](b.md)(c)\n", "- [a](b.md)[c](d.md)\n", "- [a](b.md) &amp; more\n", "- [a](b.md) - \u00a0nbsp\n", "- [a](b.md)  \n",
	"- [a `]` b](c.md)\n", "- [a](b.md) - x\\\n", "# Citations\n\n- [a](b.md) - cited\n", "<!-- c -->\n- [a](b.md)\n", "```\n- [a](b.md)\n```\n",
	"- [a\n  b](c.md)\n", "-  [a](b.md)\n", "-     [a](b.md)\n", "- [a](b.md) -- x\n", "- [*a*](b.md)\n", "- [a_b](c.md) - d\n",
}

func TestIndexFastSeeds(t *testing.T) {
	for _, s := range indexSeeds {
		if !checkIndex(t, s) {
			t.Errorf("fast path refused %q", s)
		}
	}
	for _, s := range indexNearMisses {
		checkIndex(t, s)
	}
}

// TestIndexFastEntries pins what the fast path reads of one index, written by hand from §8 and
// parseIndex's rules (Description: the rest of the item, trimmed of leading -–—:), so that the
// differential check cannot pass with both readings wrong the same way.
func TestIndexFastEntries(t *testing.T) {
	fast, _, ok := indexesOf("Intro.\n\n- [Loose](l.md)\n\n# Orders\n\n- [Order](order.md) — an order_id.\n- plain\n* [Line](sub/line.md):   a line  \n\n## Empty\n")
	if !ok {
		t.Fatal("fast path refused the index")
	}
	// the frontmatter takes lines 1-3: the body starts on line 4
	want := []IndexSection{
		{Entries: []IndexEntry{{Title: "Loose", Target: "l.md", Pos: Position{Path: "d/index.md", Line: 6, Col: 1}}}},
		{Heading: "Orders", Level: 1, Pos: Position{Path: "d/index.md", Line: 8, Col: 1}, Entries: []IndexEntry{
			{Title: "Order", Target: "order.md", Description: "an order_id.", Pos: Position{Path: "d/index.md", Line: 10, Col: 1}},
			{Title: "Line", Target: "sub/line.md", Description: "a line", Pos: Position{Path: "d/index.md", Line: 12, Col: 1}},
		}},
		{Heading: "Empty", Level: 2, Pos: Position{Path: "d/index.md", Line: 14, Col: 1}},
	}
	if !reflect.DeepEqual(fast.Sections, want) {
		t.Errorf("sections\n%+v\nwant\n%+v", fast.Sections, want)
	}
}

// FuzzIndexFast is the differential check of parseIndex's fast path: whatever index body it
// accepts, goldmark's tree must read into a deeply equal Index (sections, entries, Body).
// Run: go test ./okf -run '^$' -fuzz FuzzIndexFast -fuzztime 2m
func FuzzIndexFast(f *testing.F) {
	for _, s := range indexSeeds {
		f.Add(s)
	}
	for _, s := range indexNearMisses {
		f.Add(s)
	}
	for _, s := range corpusIndexes(f) {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		checkIndex(t, s)
	})
}

// corpusIndexes returns the body of every index.md of the corpus (corpusDir) and of the bundles
// under testdata (but testdata/corpus, the corpus's slice, once).
func corpusIndexes(t testing.TB) []string {
	return append(indexesUnder(corpusDir(t)), indexesUnder(filepath.Join("..", "testdata"), filepath.Join("..", "testdata", "corpus"))...)
}

// indexesUnder returns the body of every index.md under root, but in the folder skip (if any).
func indexesUnder(root string, skip ...string) []string {
	var out []string
	_ = filepath.Walk(root, func(p string, info os.FileInfo, err error) error {
		if err == nil && info.IsDir() && slices.Contains(skip, p) {
			return filepath.SkipDir
		}
		if err != nil || info.IsDir() || info.Name() != "index.md" {
			return nil
		}
		if src, err := os.ReadFile(p); err == nil {
			out = append(out, string(src[SplitFrontmatter(src).BodyOffset:]))
		}
		return nil
	})
	return out
}

// TestIndexFastCorpus checks every index.md of the corpus and testdata against goldmark and
// reports the share the fast path takes.
func TestIndexFastCorpus(t *testing.T) {
	bodies := corpusIndexes(t)
	if len(bodies) == 0 {
		t.Fatal("no index.md in the corpus or testdata")
	}
	taken := 0
	for _, s := range bodies {
		if checkIndex(t, s) {
			taken++
		}
	}
	t.Logf("the fast path took %d of %d index.md (%.0f%%)", taken, len(bodies), 100*float64(taken)/float64(len(bodies)))
	// Most indexes are generated lists of `[Title](target) - description` items: a fast path that
	// refused most of them would be one for nothing.
	if taken < len(bodies)*3/4 {
		t.Errorf("the fast path took only %d of %d index.md", taken, len(bodies))
	}
	// The folders listed in OKF_BODYFAST_DIRS (separated by ':'), to measure a bench bundle.
	for _, dir := range filepath.SplitList(os.Getenv("OKF_BODYFAST_DIRS")) {
		n, taken := 0, 0
		for _, s := range indexesUnder(dir) {
			n++
			if checkIndex(t, s) {
				taken++
			}
		}
		t.Logf("%s: the fast path took %d of %d index.md", dir, taken, n)
	}
}

// TestIndexFastRandom writes random index bodies from a grammar of index lines (headings, entries
// of every marker and separator, descriptions with emphasis, code, links, escapes and underscores,
// nested and lazy lines, setext underlines, blank lines) and checks every body the fast path takes
// against goldmark, and that it takes a fair share of them.
func TestIndexFastRandom(t *testing.T) {
	rnd := xorshift(11)
	pick := func(s []string) string { return s[rnd(len(s))] }
	headings := []string{"# Reference", "## Subdirectories", "# Citations", "### [Linked](sub/index.md)", "## A `code` b", "# A *em*", "Setext", "===", "---", "# ", "#tag"}
	markers := []string{"- ", "* ", "1. ", "2) ", "-  ", "-     ", "  - ", "    - ", "+ ", "", "> - "}
	titles := []string{"[Title](t.md)", "[A ↔ B](a__b.md)", "[`c`](c.md)", "[a_b](x.md)", "[*em*](e.md)", "[x]", "![i](i.png)", "[^1]", "[a](b \"t\")", "[](e.md)", "[a](<b c>)", "text [l](l.md)", "[a](b.md)[c](d.md)", "[a](b.md)(c)"}
	seps := []string{"", " - ", " — ", " – ", ": ", " -:– ", "  ", " ", "-", " -- "}
	descs := []string{"", "a description.", "post_links and posts", "x _a_b", "a_", "*em*", "`code`", "see [c](c.md)", "(`@a/b`) x", "`a` `b` c", "` x `", "``a`b`` c", "a ` b", "`c`_d", "wow!", "x ! y", "a ] b", "<http://x>", "<b>", "x \\- y", "R&amp;D", "\u00a0nbsp", "trailing  ", "(paren) x", "x[^1]", "~strike~", "a & b", "é_x"}
	others := []string{"", "", "", "Intro text.", "lazy line", "  continued", "    indented", "<!-- c -->", "```", "[^1]: note", "[r]: x.md", "para [p](p.md)"}
	taken := 0
	const runs = 20000
	for i := 0; i < runs; i++ {
		var b strings.Builder
		for j := 1 + rnd(10); j > 0; j-- {
			switch rnd(6) {
			case 0:
				b.WriteString(pick(headings))
			case 1:
				b.WriteString(pick(others))
			default:
				b.WriteString(pick(markers) + pick(titles) + pick(seps) + pick(descs))
			}
			b.WriteByte('\n')
		}
		if checkIndex(t, b.String()) {
			taken++
		}
	}
	if taken < runs/20 {
		t.Errorf("the fast path took %d of %d indexes", taken, runs)
	}
	t.Logf("the fast path took %d of %d indexes", taken, runs)
}

// BenchmarkIndex parses an index shaped like internal/bench's (a heading and a hundred
// `* [Page n](pn.md) - Entry n.` items) with the fast path and with goldmark's tree.
func BenchmarkIndex(b *testing.B) {
	var s strings.Builder
	s.WriteString("# Section 19\n\n")
	for i := 1900; i < 2000; i++ {
		fmt.Fprintf(&s, "* [Page %d](p0%d.md) - Entry %d.\n", i, i, i)
	}
	body := s.String()
	if fast, tree, ok := indexesOf(body); !ok || !reflect.DeepEqual(fast, tree) {
		b.Fatal("the bench index is not in the subset")
	}
	src := []byte(body)
	li := newLineIndex(src)
	b.SetBytes(int64(len(src)))
	b.Run("fast", func(b *testing.B) {
		b.ReportAllocs()
		for range b.N {
			parseIndex("index.md", src, 0, li, nil)
		}
	})
	b.Run("goldmark", func(b *testing.B) {
		b.ReportAllocs()
		for range b.N {
			p := &bodyParser{path: "index.md", src: src, lines: li}
			p.treeIndex()
		}
	})
}

// TestIndexEntryDescriptionSpaces: an entry's description keeps the spaces around a code span or
// emphasis, as the reader sees it, in both readers (fast path, and goldmark's tree for the item
// with emphasis the fast path refuses).
func TestIndexEntryDescriptionSpaces(t *testing.T) {
	fast, tree, ok := indexesOf("# Tables\n\n* [Messages](m.md) - v5 split `UIMessage` (UI state) from `ModelMessage`.\n")
	if !ok {
		t.Fatal("fast path refused the index")
	}
	want := "v5 split UIMessage (UI state) from ModelMessage."
	for name, x := range map[string]*Index{"fast": fast, "tree": tree} {
		if got := x.Sections[0].Entries[0].Description; got != want {
			t.Errorf("%s: description %q, want %q", name, got, want)
		}
	}
	_, tree, _ = indexesOf("* [Orders](o.md) - one row per *placed* order\n")
	if got := tree.Sections[0].Entries[0].Description; got != "one row per placed order" {
		t.Errorf("emphasis: description %q", got)
	}
}
