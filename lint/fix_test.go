package lint

import (
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/okf-tools/okf/okf"
)

// fixRound runs the rules, applies every fix and writes the files; it returns how many files changed.
func fixRound(t *testing.T, dir string) int {
	t.Helper()
	b, err := okf.LoadDir(dir, okf.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	ds := Run(b, Options{Now: fixtureNow})
	plan := PlanFixes(b, ds, Fixes(b, ds))
	for _, f := range plan {
		if err := okf.WriteFileAtomic(filepath.Join(dir, filepath.FromSlash(f.Path)), f.New, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return len(plan)
}

// A bundle with one fixable finding per fixing rule, and findings of the same rules that are not
// mechanical: --fix leaves only those, and a second --fix changes nothing. Expected texts are
// written by hand from each fix's documentation.
func TestFixEveryFixableRule(t *testing.T) {
	files := map[string]string{
		"index.md": "---\nokf_spec_version: \"0.2\" # declared\n---\n# KB\n\n* [A](a.md) - A note.\n* [Run](skills/run.md)\n* [D](d.md)",
		"a.md": "---\ntype: Note\ntitle: A\ndescription: A note.\ntags: \"x, y\"\nstale_after: 2026-09-23 # review\n" +
			"generated: { by: human:ana, at: '2026-06-20T22:53:05' }\nverified: { by: human:bo, at: soon }\n---\nA.\n",
		"b.md":            "--- \ntype: Note\ntitle: B\ndescription: B note.\ntags: [x, 2026]\n---\nB.\n",
		"d.md":            "---\ntype: Note\ntitle: D\ndescription: D note.\ntags: {a: 1}\n---\nD.\n",
		"skills/run.md":   "---\ntype: Skill\ntitle: Run\ndescription: Runs.\n---\n",
		"sub/c.md":        "---\ntype: Note\ntitle: C\ndescription: C note.\nresource: \"skills/run.md\"\ncomputation: skills/missing.sql\n---\n",
		"sub/index.md":    "# Sub\n\n* [C](c.md) - C note.\n",
		"skills/index.md": "# Skills\n\n* [Run](run.md) - Runs.\n",
	}
	want := map[string]string{
		"b.md":     "---\ntype: Note\ntitle: B\ndescription: B note.\ntags: [x, \"2026\"]\n---\nB.\n",
		"index.md": "---\nokf_version: \"0.2\" # declared\n---\n# KB\n\n* [A](a.md) - A note.\n* [Run](skills/run.md)\n* [D](d.md)\n* [B](b.md) - B note.\n",
		"a.md": "---\ntype: Note\ntitle: A\ndescription: A note.\ntags: [x, y]\nstale_after: 2026-09-23T00:00:00Z # review\n" +
			"generated: { by: human:ana, at: '2026-06-20T22:53:05Z' }\nverified: { by: human:bo, at: soon }\n---\nA.\n",
		"sub/c.md": "---\ntype: Note\ntitle: C\ndescription: C note.\nresource: \"/skills/run.md\"\ncomputation: skills/missing.sql\n---\n",
	}
	dir := t.TempDir()
	for p, text := range files {
		full := filepath.Join(dir, filepath.FromSlash(p))
		os.MkdirAll(filepath.Dir(full), 0o755)
		if err := os.WriteFile(full, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	before := fixableCodes(t, dir)
	// Every rule that offers a fix has a finding here, so a new fix cannot go untested.
	for _, r := range All() {
		if r.Fixable() && !strings.Contains(before, "["+r.Code+"]") {
			t.Errorf("fixture has no %s finding: %s", r.Code, before)
		}
	}
	if fixRound(t, dir) == 0 {
		t.Fatal("no fix applied")
	}
	for p, w := range want {
		got, _ := os.ReadFile(filepath.Join(dir, filepath.FromSlash(p)))
		if string(got) != w {
			t.Errorf("%s:\n%q\nwant\n%q", p, got, w)
		}
	}
	for p, text := range files {
		if _, changed := want[p]; !changed {
			got, _ := os.ReadFile(filepath.Join(dir, filepath.FromSlash(p)))
			if string(got) != text {
				t.Errorf("%s changed: %q", p, got)
			}
		}
	}
	// Left: only the finding of a fixing rule that is not mechanical (tags as a mapping: which tags
	// were meant is a choice); the unreadable verified.at (OKF204) has no fix and stays.
	if after := fixableCodes(t, dir); after != "d.md:5:7: tags must be a list of strings, found a mapping (§4.1) [OKF104]" {
		t.Errorf("findings of fixing rules left:\n%s", after)
	}
	if got, _ := os.ReadFile(filepath.Join(dir, "a.md")); !strings.Contains(string(got), "at: soon") {
		t.Errorf("the unfixable verified.at changed: %s", got)
	}
	if n := fixRound(t, dir); n != 0 {
		t.Errorf("second --fix changed %d files", n)
	}
}

// fixableCodes lists the findings of rules that offer a fix, sorted.
func fixableCodes(t *testing.T, dir string) string {
	b, err := okf.LoadDir(dir, okf.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, d := range Run(b, Options{Now: fixtureNow}) {
		if r := ByCode(d.Code); r != nil && r.Fixable() {
			out = append(out, d.String())
		}
	}
	sort.Strings(out)
	return strings.Join(out, "\n")
}

// TestFixOnEveryFixture applies --fix to every rule fixture (copied): no new error appears, and
// after the rounds one --fix makes, another changes nothing.
func TestFixOnEveryFixture(t *testing.T) {
	dirs, _ := filepath.Glob(filepath.Join("testdata", "rules", "*", "*"))
	n := 0
	for _, src := range dirs {
		if st, err := os.Stat(src); err != nil || !st.IsDir() {
			continue
		}
		n++
		dir := filepath.Join(t.TempDir(), "b")
		if err := os.CopyFS(dir, os.DirFS(src)); err != nil {
			t.Fatal(err)
		}
		errs := func() map[string]bool {
			b, err := okf.LoadDir(dir, okf.LoadOptions{})
			if err != nil {
				t.Fatal(err)
			}
			out := map[string]bool{}
			for _, d := range Run(b, Options{Now: fixtureNow}) {
				if d.Severity == okf.Error {
					out[d.Pos.Path+" "+d.Code] = true
				}
			}
			return out
		}
		before := errs()
		for round := 0; round < 5 && fixRound(t, dir) > 0; round++ {
		}
		if fixRound(t, dir) != 0 {
			t.Errorf("%s: --fix does not settle", src)
		}
		for e := range errs() {
			if !before[e] {
				t.Errorf("%s: new error after --fix: %s", src, e)
			}
		}
	}
	if n < 100 {
		t.Fatalf("only %d fixtures", n)
	}
}

// The delimiter fix (D2) works from the finding's line alone, so it is tested on the text: the
// line becomes exactly ---, its line ending stays, and any other line is left.
func TestFixLooseDelimiter(t *testing.T) {
	src := []byte("\xEF\xBB\xBF--- \r\ntype: Note\r\n\t---\t\r\nBody ---\n")
	var edits []okf.Edit
	for _, line := range []int{1, 3, 2, 4} {
		f, ok := fixLooseDelimiter(nil, okf.Diagnostic{Pos: okf.Position{Path: "a.md", Line: int32(line), Col: 1}}, src, nil)
		if ok != (line == 1 || line == 3) {
			t.Errorf("line %d: fix %v", line, ok)
		}
		edits = append(edits, f.Edits...)
	}
	got, err := okf.ApplyEdits(src, edits)
	if want := "\xEF\xBB\xBF---\r\ntype: Note\r\n---\r\nBody ---\n"; err != nil || string(got) != want {
		t.Errorf("got %q, want %q (%v)", got, want, err)
	}
}

// FuzzFix: whatever a concept and its index hold, --fix does not panic, keeps the concept's
// frontmatter readable with the same type, and settles: after the rounds one --fix makes, nothing
// is left to fix.
func FuzzFix(f *testing.F) {
	for _, s := range []string{
		"---\ntype: A\ntags: \"a, b\"\nstale_after: 2026-01-15\ngenerated: { by: x/y, at: '2026-01-15T08:00' }\nresource: sub/x.md\n---\n",
		"--- \r\ntype: A\r\n\t---\r\nText\r\n",
		"---\ntype: A\ntags: 'a,,b'\nsources:\n  - resource: sub/x.md\n    last_modified: 2026-02-30\n---\n",
	} {
		f.Add(s, "# KB\n\n* [X](sub/x.md)")
	}
	f.Fuzz(func(t *testing.T, concept, index string) {
		files := fstest.MapFS{"c.md": {Data: []byte(concept)}, "index.md": {Data: []byte(index)}, "sub/x.md": {Data: []byte("---\ntype: X\n---\n")}}
		type0 := ""
		for round := 0; ; round++ {
			b, err := okf.Load(files, okf.LoadOptions{})
			if err != nil {
				return
			}
			c := b.Concept("c")
			if c == nil {
				return
			}
			if round == 0 {
				type0 = c.Frontmatter.Type.Raw
			} else if c.Frontmatter.Type.Raw != type0 {
				t.Fatalf("round %d: type %q became %q:\n%q", round, type0, c.Frontmatter.Type.Raw, files["c.md"].Data)
			}
			ds := Run(b, Options{Now: fixtureNow})
			plan := PlanFixes(b, ds, Fixes(b, ds))
			if len(plan) == 0 {
				return
			}
			if round == 6 {
				t.Fatalf("--fix does not settle on %q / %q", concept, index)
			}
			for _, p := range plan {
				files[p.Path] = &fstest.MapFile{Data: p.New}
			}
		}
	})
}

// Every fix is documented for --explain and the README, and can make a fix.
func TestFixDocs(t *testing.T) {
	for _, r := range All() {
		if r.Fix == nil {
			continue
		}
		if d := r.Fix.Doc; d == "" || strings.HasSuffix(d, ".") || strings.ToLower(d[:1]) != d[:1] {
			t.Errorf("%s: fix doc %q must say what the fix does, lowercase, without a trailing period", r.Code, d)
		}
		if r.Fix.Make == nil {
			t.Errorf("%s: fix that makes nothing", r.Code)
		}
		if FixDocs[r.Code] != r.Fix.Doc {
			t.Errorf("%s: FixDocs has %q, the rule %q", r.Code, FixDocs[r.Code], r.Fix.Doc)
		}
	}
	readme, err := os.ReadFile(filepath.Join("..", "docs", "lint.md"))
	if err != nil {
		t.Skip("README.md not found")
	}
	for _, r := range All() {
		if r.Fixable() && !strings.Contains(string(readme), "| "+r.Code+" `"+r.Name+"` |") {
			t.Errorf("README's fix table has no row for %s %s", r.Code, r.Name)
		}
	}
}
