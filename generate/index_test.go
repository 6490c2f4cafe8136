package generate

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/okf-tools/okf/internal/escape"
	"github.com/okf-tools/okf/okf"
)

func concept(typ, title, desc string) *fstest.MapFile {
	s := "---\ntype: " + typ + "\n"
	if title != "" {
		s += "title: " + title + "\n"
	}
	if desc != "" {
		s += "description: " + desc + "\n"
	}
	return &fstest.MapFile{Data: []byte(s + "---\n\nBody.\n")}
}

func load(t *testing.T, m fstest.MapFS) *okf.Bundle {
	t.Helper()
	b, err := okf.Load(m, okf.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func changed(t *testing.T, m fstest.MapFS, opts IndexOptions) map[string]string {
	t.Helper()
	cs, err := Indexes(load(t, m), opts)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for _, c := range cs {
		out[c.Path] = string(c.New)
		m[c.Path] = &fstest.MapFile{Data: c.New}
	}
	return out
}

// TestIndexFresh: with no indexes, every folder with concepts gets one listing its subtree (§8),
// grouped by folder (the folder's own concepts first) or by type; reserved files are never listed.
func TestIndexFresh(t *testing.T) {
	m := fstest.MapFS{
		"a.md":             concept("Metric", "Alpha", "First letter."),
		"log.md":           {Data: []byte("# Log\n\n## 2026-01-01\n\n* x\n")},
		"tables/orders.md": concept("Table", "Orders", "One row per order."),
		"tables/x/deep.md": concept("Table", "", "Deep one."),
		"README.txt":       {Data: []byte("not markdown")},
	}
	got := changed(t, m, IndexOptions{})
	want := map[string]string{
		"index.md":          "# Concepts\n\n* [Alpha](a.md) - First letter.\n\n# tables\n\n* [Orders](tables/orders.md) - One row per order.\n\n# tables/x\n\n* [deep](tables/x/deep.md) - Deep one.\n",
		"tables/index.md":   "# tables\n\n* [Orders](orders.md) - One row per order.\n\n# x\n\n* [deep](x/deep.md) - Deep one.\n",
		"tables/x/index.md": "# x\n\n* [deep](deep.md) - Deep one.\n",
	}
	if !mapsEqual(got, want) {
		t.Errorf("got %q\nwant %q", got, want)
	}
	if again := changed(t, m, IndexOptions{}); len(again) != 0 {
		t.Errorf("second run changes %v", again)
	}

	byType := changed(t, fstest.MapFS{"a.md": m["a.md"], "tables/orders.md": m["tables/orders.md"]}, IndexOptions{GroupBy: GroupByType})
	if w := "# Metric\n\n* [Alpha](a.md) - First letter.\n\n# Table\n\n* [Orders](tables/orders.md) - One row per order.\n"; byType["index.md"] != w {
		t.Errorf("by type:\n%s\nwant\n%s", byType["index.md"], w)
	}
	if _, err := Indexes(load(t, m), IndexOptions{GroupBy: "colour"}); err == nil {
		t.Error("bad group-by accepted")
	}
}

// TestIndexMerge: a hand-written index keeps its frontmatter, headings, prose, titles and
// descriptions; a deleted concept's entry goes; a new concept joins the section of its group
// after its last entry (or a new section at the end); links that are not concept entries stay, and
// a link to a subfolder stands for the concepts below it (progressive disclosure).
func TestIndexMerge(t *testing.T) {
	hand := "---\nokf_version: \"0.2\"\n---\n\n# Our knowledge\n\nRead this first.\n\n" +
		"# tables\n\n* [The orders table](tables/orders.md) - Hand-written words.\n* [Gone](tables/gone.md) - Deleted since.\n" +
		"  continued line of the gone entry\n* [Docs](https://example.com) - External.\n* [Archive](archive/) - Older things.\n\nMore prose.\n"
	m := fstest.MapFS{
		"index.md":           {Data: []byte(hand)},
		"a.md":               concept("Metric", "Alpha", "First letter."),
		"tables/orders.md":   concept("Table", "Orders", "One row per order."),
		"tables/refunds.md":  concept("Table", "Refunds", "Money back."),
		"tables/index.md":    {Data: []byte("# Tables\n\n* [Orders](orders.md)\n")},
		"tables/empty/.keep": {Data: nil},
		"archive/report.md":  concept("Report", "Report", "An old report."),
	}
	got := changed(t, m, IndexOptions{})
	wantRoot := "---\nokf_version: \"0.2\"\n---\n\n# Our knowledge\n\nRead this first.\n\n" +
		"# tables\n\n* [The orders table](tables/orders.md) - Hand-written words.\n" +
		"* [Docs](https://example.com) - External.\n* [Archive](archive/) - Older things.\n* [Refunds](tables/refunds.md) - Money back.\n\nMore prose.\n\n# Concepts\n\n* [Alpha](a.md) - First letter.\n"
	if got["index.md"] != wantRoot {
		t.Errorf("root index:\n%s\nwant\n%s", got["index.md"], wantRoot)
	}
	// An entry without a description gets the concept's; "Tables" is not "tables", so a new section.
	wantTables := "# Tables\n\n* [Orders](orders.md) - One row per order.\n\n# tables\n\n* [Refunds](refunds.md) - Money back.\n"
	if got["tables/index.md"] != wantTables {
		t.Errorf("tables index:\n%s\nwant\n%s", got["tables/index.md"], wantTables)
	}
	// The archive folder is linked from the root, so its concept is listed in its own index only.
	if w := "# archive\n\n* [Report](report.md) - An old report.\n"; got["archive/index.md"] != w {
		t.Errorf("archive index:\n%s\nwant\n%s", got["archive/index.md"], w)
	}
	if again := changed(t, m, IndexOptions{}); len(again) != 0 {
		t.Errorf("second merge changes %v", again)
	}

	// Previous listings (from gen) let generated titles and descriptions follow the concept.
	m["tables/orders.md"] = concept("Table", "Orders v2", "Two rows per order.")
	got = changed(t, m, IndexOptions{Previous: map[string]Listing{"tables/orders.md": {Title: "Orders", Description: "One row per order."}}})
	if w := "* [Orders v2](orders.md) - Two rows per order.\n"; !strings.Contains(got["tables/index.md"], w) {
		t.Errorf("generated entry did not follow:\n%s", got["tables/index.md"])
	}
	if root, ok := got["index.md"]; ok {
		t.Errorf("the root index's hand-written entry must not change:\n%s", root)
	}

	// Rewrite mode starts from scratch, keeping only the root's okf_version frontmatter.
	got = changed(t, m, IndexOptions{Rewrite: true})
	if w := "---\nokf_version: \"0.2\"\n---\n\n# Concepts\n\n* [Alpha](a.md) - First letter.\n\n# archive\n\n* [Report](archive/report.md) - An old report.\n\n# tables\n\n* [Orders v2](tables/orders.md) - Two rows per order.\n* [Refunds](tables/refunds.md) - Money back.\n"; got["index.md"] != w {
		t.Errorf("rewrite:\n%s\nwant\n%s", got["index.md"], w)
	}
}

// TestIndexOKFVersion: gen's root index declares okf_version "0.2" (§12) and keeps the rest.
func TestIndexOKFVersion(t *testing.T) {
	for in, want := range map[string]string{
		"# Hi\n":                                 "---\nokf_version: \"0.2\"\n---\n\n# Hi\n",
		"---\nokf_version: \"0.1\"\n---\n# Hi\n": "---\nokf_version: \"0.2\"\n---\n# Hi\n",
		"---\nokf_version: '0.2'\n---\n# Hi\n":   "---\nokf_version: '0.2'\n---\n# Hi\n",
	} {
		if got := string(setOKFVersion([]byte(in), "0.2")); got != want {
			t.Errorf("setOKFVersion(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestAddLogEntries(t *testing.T) {
	day := time.Date(2026, 5, 22, 15, 0, 0, 0, time.UTC)
	items := []string{"**Creation**: a.", "**Update**: b."}
	if got, want := string(AddLogEntries(nil, day, items)), "# Update Log\n\n## 2026-05-22\n\n* **Creation**: a.\n* **Update**: b.\n"; got != want {
		t.Errorf("new log:\n%q\nwant\n%q", got, want)
	}
	old := "# Log\n\n## 2026-05-15\n\n* Older.\n"
	if got, want := string(AddLogEntries([]byte(old), day, items[:1])), "# Log\n\n## 2026-05-22\n\n* **Creation**: a.\n\n## 2026-05-15\n\n* Older.\n"; got != want {
		t.Errorf("new group on top:\n%q\nwant\n%q", got, want)
	}
	same := "# Log\n\n## 2026-05-22\n\n* First.\n\n## 2026-05-15\n\n* Older.\n"
	if got, want := string(AddLogEntries([]byte(same), day, items[1:])), "# Log\n\n## 2026-05-22\n\n* First.\n* **Update**: b.\n\n## 2026-05-15\n\n* Older.\n"; got != want {
		t.Errorf("same day:\n%q\nwant\n%q", got, want)
	}
	future := "# Log\n\n```\n## 2026-01-01\n```\n\n## 2026-06-01\n\n* Future.\n"
	if got, want := string(AddLogEntries([]byte(future), day, items[:1])), future+"\n## 2026-05-22\n\n* **Creation**: a.\n"; got != want {
		t.Errorf("after a newer group:\n%q\nwant\n%q", got, want)
	}
}

// TestIndexCorpus runs index regeneration over the real bundles of the corpus (../shared/corpus
// when it is there, else the slice of it in testdata/corpus): it never adds a conformance error,
// lists every concept in its directory's index, and a second run changes nothing (merge mode is a
// fixpoint on other people's hand-written indexes too).
func TestIndexCorpus(t *testing.T) {
	root := filepath.Join("..", "..", "shared", "corpus")
	if _, err := os.Stat(root); err != nil {
		root = filepath.Join("..", "testdata", "corpus")
	}
	entries, err := os.ReadDir(root)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if !e.IsDir() {
			continue
		}
		t.Run(e.Name(), func(t *testing.T) {
			m, err := readTree(filepath.Join(root, e.Name()), 0)
			if err != nil {
				t.Fatal(err)
			}
			before := load(t, m).Errors()
			for _, by := range []string{GroupByDirectory, GroupByType} {
				changed(t, m, IndexOptions{GroupBy: by})
				b := load(t, m)
				if b.Errors() > before {
					t.Errorf("%s: %d errors after, %d before", by, b.Errors(), before)
				}
				// Linked from its folder's index: directly, or through a link to a subfolder.
				listed := map[string]bool{}
				for _, x := range b.Indexes {
					for _, l := range x.Body.Links {
						if r := b.ResolveLink(x.Path, l.Target); r.Exists {
							listed[x.Dir()+"\x00"+strings.TrimSuffix(r.Target, "/index.md")] = true
						}
					}
				}
				for _, c := range b.Concepts {
					ok := false
					for p := c.Path; p != c.Dir() && p != ""; p = parentDir(p) {
						ok = ok || listed[c.Dir()+"\x00"+p]
					}
					if !ok {
						t.Errorf("%s: %s is not in its directory's index", by, c.Path)
					}
				}
				if again := changed(t, m, IndexOptions{GroupBy: by}); len(again) != 0 {
					t.Errorf("%s: second run changes %d indexes", by, len(again))
				}
			}
		})
	}
}

// TestIndexUnder: Under limits a run to one folder's index and those below it; the root index and
// sibling folders are left alone, and the folder's index is a folder index (no frontmatter) even
// with OKFVersion set, since only the root index carries okf_version (§8, D7).
func TestIndexUnder(t *testing.T) {
	m := fstest.MapFS{
		"a.md":             concept("Metric", "Alpha", "First letter."),
		"other/o.md":       concept("Table", "Other", "Not touched."),
		"tables/orders.md": concept("Table", "Orders", "One row per order."),
		"tables/x/deep.md": concept("Table", "", "Deep one."),
		"tablesque/q.md":   concept("Table", "Q", "A sibling whose name starts the same."),
	}
	got := changed(t, m, IndexOptions{Under: "tables", OKFVersion: "0.2"})
	want := map[string]string{
		"tables/index.md":   "# tables\n\n* [Orders](orders.md) - One row per order.\n\n# x\n\n* [deep](x/deep.md) - Deep one.\n",
		"tables/x/index.md": "# x\n\n* [deep](deep.md) - Deep one.\n",
	}
	if !mapsEqual(got, want) {
		t.Errorf("got %q\nwant %q", got, want)
	}
}

// TestProveIndex: the check a merged index passes before it is written fails when the merge would
// lose a person's prose line, an entry whose concept exists, or a frontmatter key; and passes what
// the merge means to do (a deleted concept's entry removed, an entry added, okf_version set).
func TestProveIndex(t *testing.T) {
	hand := "---\nokf_version: \"0.1\"\nnote: kept\n---\n\n# Ours\n\nRead this first.\n\n* [Orders](orders.md) - Words.\n* [Gone](gone.md) - Deleted.\n  continued\n\nMore prose.\n"
	m := fstest.MapFS{"index.md": {Data: []byte(hand)}, "orders.md": concept("Table", "Orders", "Rows."), "new.md": concept("Table", "New", "Fresh.")}
	b, err := okf.Load(m, okf.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	x := b.Indexes[0]
	good := "---\nokf_version: \"0.2\"\nnote: kept\n---\n\n# Ours\n\nRead this first.\n\n* [Orders](orders.md) - Words.\n* [New](new.md) - Fresh.\n\nMore prose.\n"
	if err := proveIndex(b, x, []byte(hand), []byte(good), true, true, "0.2"); err != nil {
		t.Errorf("the merge as meant: %v", err)
	}
	for name, bad := range map[string]string{
		"prose lost":      strings.Replace(good, "Read this first.\n", "", 1),
		"prose moved":     strings.Replace(strings.Replace(good, "More prose.\n", "", 1), "# Ours\n", "# Ours\n\nMore prose.\n", 1),
		"entry lost":      strings.Replace(good, "* [Orders](orders.md) - Words.\n", "", 1),
		"key lost":        strings.Replace(good, "note: kept\n", "", 1),
		"key changed":     strings.Replace(good, "note: kept", "note: [kept]", 1),
		"version not set": strings.Replace(good, `"0.2"`, `"0.1"`, 1),
		// The target's text is still there, but no longer a link: the entry is gone.
		"entry made code": strings.Replace(good, "* [Orders](orders.md) - Words.", "* `[Orders](orders.md)` - Words.", 1),
	} {
		if err := proveIndex(b, x, []byte(hand), []byte(bad), true, true, "0.2"); !errors.Is(err, okf.ErrUnproven) {
			t.Errorf("%s: %v, want unproven", name, err)
		}
	}
}

// TestIndexTargetHostileName: a concept file's name is the pull request's, and a raw line break in
// an entry's link target would start a line of the index of its own (`::error …`, a workflow
// command when the index is printed in CI) and break the link. Such characters, and the `%`, `#`
// and `?` that resolving a target decodes or strips (D15), are percent-encoded, so every entry is
// one line and its target resolves to the file.
func TestIndexTargetHostileName(t *testing.T) {
	names := []string{
		"evil\n::error file=x.md::y.md", "cr\r::warning ::z.md", "bidi\u202e.md", "nel\u0085x.md",
		"ls\u2028x.md", "pct%41.md", "hash#x.md", "what?.md", "esc\x1b[31m.md",
		// a link destination's backslash escapes and character references are decoded (CommonMark)
		"amp&amp;x.md", "num&#38;x.md", "hex&#x41;.md", "back\\_slash.md", "two\\\\b.md", "and&x.md", "end\\.md",
	}
	m := fstest.MapFS{"index.md": {Data: []byte("---\nokf_version: \"0.2\"\n---\n# Root\n")}}
	for _, n := range names {
		m["sub/"+n] = concept("Reference", "T", "D.")
	}
	b := load(t, m)
	cs, err := Indexes(b, IndexOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var sub string
	for _, c := range cs {
		if c.Path == "sub/index.md" {
			sub = string(c.New)
		}
	}
	if sub == "" {
		t.Fatalf("no sub/index.md written: %v", cs)
	}
	for _, line := range strings.Split(sub, "\n") {
		if strings.HasPrefix(strings.TrimSpace(line), "::") {
			t.Errorf("index line is a workflow command: %q\n%s", line, sub)
		}
		if escape.Control(line) != line {
			t.Errorf("index line holds control text: %q", line)
		}
	}
	m["sub/index.md"] = &fstest.MapFile{Data: []byte(sub)}
	x := load(t, m)
	var idx *okf.Index
	for _, i := range x.Indexes {
		if i.Path == "sub/index.md" {
			idx = i
		}
	}
	got := map[string]bool{}
	for _, sec := range idx.Sections {
		for _, e := range sec.Entries {
			if res := x.ResolveLink(idx.Path, e.Target); res.Exists {
				got[res.Target] = true
			}
		}
	}
	for _, n := range names {
		if !got["sub/"+n] {
			t.Errorf("no entry of sub/index.md resolves to %q:\n%s", "sub/"+n, sub)
		}
	}
}

// TestGenConfigProblemsBounded: okf-gen.yaml is the checkout's; 50,000 unknown keys give at most
// okf.MaxConfigProblems problems, the rest counted.
func TestGenConfigProblemsBounded(t *testing.T) {
	var b strings.Builder
	const n = 50000
	for i := 0; i < n; i++ {
		k := "k"
		for j := i; j > 0; j /= 26 {
			k += string(rune('a' + j%26))
		}
		b.WriteString(k + ": 1\n")
	}
	_, err := ParseConfig("okf-gen.yaml", []byte(b.String()))
	var ce *okf.ConfigError
	if !errors.As(err, &ce) {
		t.Fatalf("ParseConfig = %v", err)
	}
	if len(ce.Problems) > okf.MaxConfigProblems || len(ce.Problems)+ce.More != n {
		t.Errorf("%d problems kept, %d more; want at most %d kept of %d", len(ce.Problems), ce.More, okf.MaxConfigProblems, n)
	}
}

// TestIndexesManyFolders: finding the concepts below each folder costs about the same per
// concept at 500 and at 4,000 concepts, each in a folder of its own (every folder used to look at
// every concept of the bundle).
func TestIndexesManyFolders(t *testing.T) {
	steps := func(n int) int {
		m := fstest.MapFS{}
		for i := range n {
			m[fmt.Sprintf("f%d/g/c.md", i)] = concept("Note", "C", "A concept.")
		}
		b := load(t, m)
		return work(func() {
			if _, err := Indexes(b, IndexOptions{}); err != nil {
				t.Fatal(err)
			}
		})
	}
	if ws, wl := steps(500), steps(4000); ws > 0 && float64(wl)/float64(ws) > 8*1.5 {
		t.Errorf("Indexes: %d steps for 500 concepts in folders of their own, %d for 4,000: not linear", ws, wl)
	}
}

// TestProveIndexLinear: proving a merged index reads the new text once, not once for each entry
// (a 6,064-entry root index of a real bundle took 6 s): the bytes allocated grow with the entries,
// not with their square.
func TestProveIndexLinear(t *testing.T) {
	alloc := func(n int) uint64 {
		var idx strings.Builder
		idx.WriteString("---\nokf_version: \"0.2\"\n---\n\n# Root\n\n")
		for i := range n {
			fmt.Fprintf(&idx, "* [Page %d](https://docs.example/page-%d) - A page of the docs.\n", i, i)
		}
		old := []byte(idx.String())
		b := load(t, fstest.MapFS{"index.md": {Data: old}})
		x := b.Indexes[0]
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		if err := proveIndex(b, x, old, old, true, true, ""); err != nil {
			t.Fatal(err)
		}
		runtime.ReadMemStats(&after)
		return after.TotalAlloc - before.TotalAlloc
	}
	small, large := alloc(1000), alloc(4000)
	if large > 8*small {
		t.Errorf("proving 4,000 entries allocated %d bytes, 1,000 entries %d: %.1f×, want about 4×", large, small, float64(large)/float64(small))
	}
}

// TestIndexMergeKeepsEscapedEntries: a hand-written entry whose target uses a character reference
// or a backslash escape (`a&amp;b.md`, `u\_s.md`) names the concept a renderer links it to; the
// merge keeps it and its description, and does not list the concept again.
func TestIndexMergeKeepsEscapedEntries(t *testing.T) {
	old := "# Things\n\nMy intro.\n\n" +
		"- [A and B](a&amp;b.md) - the ampersand one, by hand\n" +
		"- [U S](u\\_s.md) - the underscore one, by hand\n" +
		"- [N](n&#38;m.md) - numeric, by hand\n" +
		"- [Plain](plain.md) - plain, by hand\n"
	m := fstest.MapFS{
		"index.md": {Data: []byte(old)},
		"a&b.md":   concept("Reference", "A and B", "D."),
		"u_s.md":   concept("Reference", "U S", "D."),
		"n&m.md":   concept("Reference", "N", "D."),
		"plain.md": concept("Reference", "Plain", "D."),
	}
	cs, err := Indexes(load(t, m), IndexOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range cs {
		if c.Path == "index.md" && string(c.New) != old {
			t.Errorf("index.md changed:\n%s", c.New)
		}
	}
}

// TestIndexMergeRewritesEscapedTargetsAsWritten: an entry given its description keeps its target as
// the person wrote it (`a\>b.md`, `<a\<b c.md>`), instead of a re-encoding the proof refused.
func TestIndexMergeRewritesEscapedTargetsAsWritten(t *testing.T) {
	old := "# Things\n\n- [G](a\\>b.md)\n- [AB](<a\\<b c.md>)\n- [N](n&#38;m.md)\n"
	want := "# Things\n\n- [G](a\\>b.md) - D.\n- [AB](<a\\<b c.md>) - D.\n- [N](n&#38;m.md) - D.\n"
	m := fstest.MapFS{
		"index.md": {Data: []byte(old)},
		"a>b.md":   concept("Reference", "G", "D."),
		"a<b c.md": concept("Reference", "AB", "D."),
		"n&m.md":   concept("Reference", "N", "D."),
	}
	cs, err := Indexes(load(t, m), IndexOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(cs) != 1 || string(cs[0].New) != want {
		t.Fatalf("got %d changes:\n%v", len(cs), cs)
	}
}

// TestIndexEntryTitleBacktick: a title with a backtick, and a description with a code span after
// it, is one link: unescaped, the backtick opened a code span over `](a.md)`, the entry was no
// link, and every run appended it again.
func TestIndexEntryTitleBacktick(t *testing.T) {
	m := fstest.MapFS{
		"index.md": {Data: []byte("# Things\n")},
		"a.md":     concept("Reference", "The ` quote", "Run `cmd` now."),
	}
	cs, err := Indexes(load(t, m), IndexOptions{})
	if err != nil || len(cs) != 1 {
		t.Fatalf("%v %v", cs, err)
	}
	m["index.md"] = &fstest.MapFile{Data: cs[0].New}
	b := load(t, m)
	links := b.Indexes[0].Body.Links
	if len(links) != 1 || links[0].Target != "a.md" || links[0].Text != "The \\` quote" { // text as written
		t.Fatalf("the entry reads as %+v:\n%s", links, cs[0].New)
	}
	if again, err := Indexes(b, IndexOptions{}); err != nil || len(again) != 0 {
		t.Fatalf("a second run changes %v (%v)", again, err)
	}
}

// TestIndexMergeKeepsWhatEntriesHold: an entry a person wrote that gets the description it lacked
// (or, from gen, a new title) keeps every byte it had: the list marker (`1.`, `2)`, wide spacing),
// the title's emphasis, a link title, a reference-style link, a comment after it, a code block
// under it, and the file's line ending. Rewritten from its parse, the entry lost them all, and an
// ordered item became a paragraph (`1 [E](e.md)`). An entry whose description cannot be added
// without changing what it says (a comment left open on its line) is left as it is.
func TestIndexMergeKeepsWhatEntriesHold(t *testing.T) {
	files := func(index string) fstest.MapFS {
		m := fstest.MapFS{"index.md": {Data: []byte(index)}}
		for _, n := range []string{"a", "b", "c", "d", "e", "f", "g", "h"} {
			m[n+".md"] = concept("Table", strings.ToUpper(n), "Row "+n+".")
		}
		return m
	}
	for _, tc := range []struct{ name, old, want string }{
		{"emphasis and link title",
			"# T\n\n* [**A** table](a.md \"tip\")\n",
			"# T\n\n* [**A** table](a.md \"tip\") - Row a.\n"},
		{"reference link and comment",
			"# T\n\n* [B][r] <!-- mine -->\n\n[r]: b.md \"R\"\n",
			"# T\n\n* [B][r] <!-- mine --> - Row b.\n\n[r]: b.md \"R\"\n"},
		{"code block under the entry",
			"# T\n\n* [C](c.md)\n  ```\n  select 1\n  ```\n",
			"# T\n\n* [C](c.md) - Row c.\n  ```\n  select 1\n  ```\n"},
		{"ordered markers and spacing",
			"# T\n\n1. [D](d.md)\n2) [E](e.md)\n\n-   [F](f.md)\n",
			"# T\n\n1. [D](d.md) - Row d.\n2) [E](e.md) - Row e.\n\n-   [F](f.md) - Row f.\n"},
		{"comment left open",
			"# T\n\n* [G](g.md) <!--\n  note -->\n",
			"# T\n\n* [G](g.md) <!--\n  note -->\n"},
		{"CRLF",
			"# T\r\n\r\n* [H](h.md)\r\n",
			"# T\r\n\r\n* [H](h.md) - Row h.\r\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := files(tc.old)
			for n := range m { // only the concepts the index names: nothing is appended
				if n != "index.md" && !strings.Contains(tc.old, n) && !strings.Contains(tc.old, "]: "+n) {
					delete(m, n)
				}
			}
			got := tc.old
			if out, ok := changed(t, m, IndexOptions{})["index.md"]; ok {
				got = out
			}
			if got != tc.want {
				t.Errorf("merged index:\n%q\nwant:\n%q", got, tc.want)
			}
			if again := changed(t, m, IndexOptions{}); len(again) != 0 {
				t.Errorf("a second run changes %q", again)
			}
		})
	}
	// gen's new title: the marker and what follows the description stay.
	m := files("# T\n\n1. [Old](a.md) - Old desc. <!-- mine -->\n")
	for n := range m {
		if n != "index.md" && n != "a.md" {
			delete(m, n)
		}
	}
	got := changed(t, m, IndexOptions{Previous: map[string]Listing{"a.md": {Title: "Old", Description: "Old desc."}}})["index.md"]
	if want := "# T\n\n1. [A](a.md) - Row a. <!-- mine -->\n"; got != want {
		t.Errorf("gen's rewrite:\n%q\nwant:\n%q", got, want)
	}
}

// TestIndexMergeCRLFAdds: entries added to an index written with CRLF line ends use them too.
func TestIndexMergeCRLFAdds(t *testing.T) {
	m := fstest.MapFS{
		"index.md": {Data: []byte("# Concepts\r\n\r\n* [A](a.md) - Mine.\r\n\r\n# Other\r\n")},
		"a.md":     concept("Table", "A", "Row a."),
		"b.md":     concept("Table", "B", "Row b."),
		"sub/c.md": concept("Table", "C", "Row c."),
	}
	got := changed(t, m, IndexOptions{})["index.md"]
	want := "# Concepts\r\n\r\n* [A](a.md) - Mine.\r\n* [B](b.md) - Row b.\r\n\r\n# Other\r\n\r\n# sub\r\n\r\n* [C](sub/c.md) - Row c.\r\n"
	if got != want {
		t.Errorf("merged index:\n%q\nwant:\n%q", got, want)
	}
}

// TestIndexMergeOpenBlockAtEnd: an index that ends inside a code block or a comment left open
// swallows the entries appended after it: they read as code, not links, so every run appended
// them again. The rewrite is refused instead, naming the concept whose entry would not be a link.
func TestIndexMergeOpenBlockAtEnd(t *testing.T) {
	for _, tail := range []string{"```\nsome code\n", "<!-- note\n", "~~~"} {
		m := fstest.MapFS{
			"index.md": {Data: []byte("# C\n\n* [A](a.md) - x.\n\n" + tail)},
			"a.md":     concept("Table", "A", "Row a."),
			"b.md":     concept("Table", "B", "Row b."),
		}
		_, err := Indexes(load(t, m), IndexOptions{})
		if err == nil || !strings.Contains(err.Error(), `index.md: not rewritten: the rewrite does not mean what it was meant to: the entry added for "b.md" does not read as a link`) {
			t.Errorf("%q: got %v", tail, err)
		}
	}
}

// TestIndexMergeNoFinalNewline: an index whose last line has no line break gets its entries
// appended; the proof read that line, now ending in one, as gone and refused every such index.
func TestIndexMergeNoFinalNewline(t *testing.T) {
	m := fstest.MapFS{
		"index.md": {Data: []byte("# C\n\n* [A](a.md) - x.\n\nSome prose")},
		"a.md":     concept("Table", "A", "Row a."),
		"b.md":     concept("Table", "B", "Row b."),
	}
	cs, err := Indexes(load(t, m), IndexOptions{})
	if err != nil {
		t.Fatal(err)
	}
	want := "# C\n\n* [A](a.md) - x.\n\nSome prose\n\n# Concepts\n\n* [B](b.md) - Row b.\n"
	if len(cs) != 1 || string(cs[0].New) != want {
		t.Errorf("got %q, want %q", cs, want)
	}
}

// TestIndexNamesOnOneLine: a file or folder name holding a line break (a checkout can hold one)
// is shown on one line, as a title is: the entry's text and the section's heading no longer start
// a line of index.md with whatever followed the break (`::error::…` in a CI log), which is why the
// link's destination is percent-encoded already.
func TestIndexNamesOnOneLine(t *testing.T) {
	m := fstest.MapFS{
		"a\n::error::x.md":     {Data: []byte("---\ntype: T\n---\nBody.\n")},
		"d\n::warning::y/c.md": {Data: []byte("---\ntype: T\ntitle: C\n---\nBody.\n")},
	}
	got := changed(t, m, IndexOptions{})["index.md"]
	want := "# Concepts\n\n* [a ::error::x](a%0A::error::x.md)\n\n# d ::warning::y\n\n* [C](d%0A::warning::y/c.md)\n"
	if got != want {
		t.Errorf("got  %q\nwant %q", got, want)
	}
}

// TestIndexNoControlCharacters: a title or description holding a control character (YAML's "\e"
// writes ESC) is written into index.md as a visible escape, not raw: a raw ESC in the file moves
// the cursor, colours or links (OSC 8) the terminal of whoever runs cat or git diff on it. Text
// of other scripts stays as it is, a right-to-left mark included.
func TestIndexNoControlCharacters(t *testing.T) {
	m := fstest.MapFS{
		"a.md": {Data: []byte("---\ntype: T\ntitle: \"A\\e]8;;https://x.example\\e\\\\B\\x7f\\u009b\"\ndescription: \"Row\\a a.\"\n---\nBody.\n")},
		"b.md": {Data: []byte("---\ntype: T\ntitle: \"\u05e9\u05dc\u05d5\u05dd\u200f\"\n---\nBody.\n")},
	}
	got := changed(t, m, IndexOptions{})["index.md"]
	for _, r := range got {
		if r < 0x20 && r != '\n' || r == 0x7f || r >= 0x80 && r <= 0x9f {
			t.Fatalf("index.md holds %U:\n%q", r, got)
		}
	}
	if !strings.Contains(got, "\u05e9\u05dc\u05d5\u05dd\u200f") {
		t.Errorf("the Hebrew title changed:\n%q", got)
	}
	if again := changed(t, m, IndexOptions{}); len(again) != 0 {
		t.Errorf("a second run changes %q", again)
	}
}

// TestBodyNoControlCharacters: the block gen writes into a concept holds no raw control character
// either, whatever the post's title, summary or headings hold.
func TestBodyNoControlCharacters(t *testing.T) {
	d := &ConceptData{Title: "T", SourceTitle: "Evil\x1b[31m", Summary: "Sum\x07mary.", URL: "https://x.example/a",
		Outline: []OutlineItem{{Level: 2, Text: "Head\x9bing"}}}
	for _, r := range d.Body() {
		if r < 0x20 && r != '\n' || r == 0x7f || r >= 0x80 && r <= 0x9f {
			t.Fatalf("the block holds %U:\n%q", r, d.Body())
		}
	}
}

// TestIndexRewriteCRLF: --rewrite of an index written with CRLF line ends writes CRLF throughout,
// the root's kept frontmatter and the new body alike.
func TestIndexRewriteCRLF(t *testing.T) {
	m := fstest.MapFS{
		"index.md": {Data: []byte("---\r\nokf_version: \"0.2\"\r\n---\r\n\r\n# Old\r\n")},
		"a.md":     concept("Table", "A", "Row a."),
	}
	got := changed(t, m, IndexOptions{Rewrite: true})["index.md"]
	want := "---\r\nokf_version: \"0.2\"\r\n---\r\n\r\n# Concepts\r\n\r\n* [A](a.md) - Row a.\r\n"
	if got != want {
		t.Errorf("got  %q\nwant %q", got, want)
	}
}

// TestIndexLoneCR: an index whose lines end with a lone carriage return (classic Mac OS) is one
// line to a merge that splits lines at LF, but several to Markdown: the merge is refused with that
// reason, where it said its whole text was a line that "is gone".
func TestIndexLoneCR(t *testing.T) {
	m := fstest.MapFS{
		"index.md": {Data: []byte("# C\r\r* [A](a.md)\r\rProse.\r")},
		"a.md":     concept("Table", "A", "Row a."),
		"b.md":     concept("Table", "B", "Row b."),
	}
	_, err := Indexes(load(t, m), IndexOptions{})
	want := "index.md: not rewritten: its lines end with a lone carriage return (CR): okf merges an index whose lines end with LF or CRLF; convert it"
	if err == nil || err.Error() != want {
		t.Errorf("got  %v\nwant %s", err, want)
	}
}
