package migrate_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/okf-tools/okf/migrate"
	"github.com/okf-tools/okf/okf"
)

// bundle writes files (slash path → text) into a temporary bundle.
func bundle(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for p, text := range files {
		full := filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func plan(t *testing.T, dir string) *migrate.Plan {
	t.Helper()
	b, err := okf.LoadDir(dir, okf.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return migrate.Run(b, migrate.Options{Now: now})
}

func newText(p *migrate.Plan, path string) string {
	for _, c := range p.Changes {
		if c.Path == path {
			return string(c.New)
		}
	}
	return ""
}

// Each case is one v0.1 concept and the text the migration must make of it, written by hand from
// §13 and D10: only the places named change.
func TestConceptEdits(t *testing.T) {
	cases := []struct {
		name, in, want string
	}{
		{
			name: "date-only timestamp with comment and unknown key",
			in:   "---\n# heading comment\ntype: Lesson\nlayer: concept   # ours\ntimestamp: 2026-01-15 # written by hand\n---\nBody.\n",
			want: "---\n# heading comment\ntype: Lesson\nlayer: concept   # ours\ngenerated: { by: process:okf-migrate, at: 2026-01-15T00:00:00Z } # written by hand\n---\nBody.\n",
		},
		{
			name: "offset-less timestamp keeps its quotes",
			in:   "---\ntype: A\ntimestamp: '2026-01-15T08:15:00'\ntitle: \"T\"\n---\n",
			want: "---\ntype: A\ngenerated: { by: process:okf-migrate, at: '2026-01-15T08:15:00Z' }\ntitle: \"T\"\n---\n",
		},
		{
			name: "a producer key that follows §7 is the author, and stays",
			in:   "---\ntype: A\ngenerated_by: reference_agent/gemini-2.5-pro\ntimestamp: \"2026-01-15T08:15:00+02:00\"\n---\n",
			want: "---\ntype: A\ngenerated_by: reference_agent/gemini-2.5-pro\ngenerated: { by: reference_agent/gemini-2.5-pro, at: \"2026-01-15T08:15:00+02:00\" }\n---\n",
		},
		{
			name: "a producer key that is a plain name is not an actor",
			in:   "---\ntype: A\nauthor: Jane Doe\ntimestamp: 2026-01-15T08:15:00Z\n---\n",
			want: "---\ntype: A\nauthor: Jane Doe\ngenerated: { by: process:okf-migrate, at: 2026-01-15T08:15:00Z }\n---\n",
		},
		{
			name: "tags string and date-only stale_after",
			in:   "---\ntype: A\ntags: \"sales, orders ,2026\"\nstale_after: 2026-09-23\n---\n",
			want: "---\ntype: A\ntags: [sales, orders, \"2026\"]\nstale_after: 2026-09-23T00:00:00Z\n---\n",
		},
		{
			name: "citations with a footnote, a titled link and plain text",
			in: "---\ntype: A\ntimestamp: 2026-01-15T08:15:00Z\n---\n\nRevenue is recognised on delivery.[^1]\n\n" +
				"# Citations\n\n- [Revenue policy](https://wiki.acme/rev)\n- The FP&A handbook, 2025 edition\n\n# Notes\n\nKept.\n\n[^1]: https://wiki.acme/rev\n",
			want: "---\ntype: A\ngenerated: { by: process:okf-migrate, at: 2026-01-15T08:15:00Z }\nsources:\n  - id: \"1\"\n    resource: https://wiki.acme/rev\n    title: Revenue policy\n  - title: \"The FP&A handbook, 2025 edition\"\n---\n\nRevenue is recognised on delivery.[^1]\n\n" +
				"# Notes\n\nKept.\n\n[^1]: https://wiki.acme/rev\n",
		},
		{
			name: "a timestamp equal to generated.at is redundant and goes",
			in:   "---\ntype: A\ngenerated: { by: human:ana, at: 2026-01-15T09:15:00+01:00 }\ntimestamp: 2026-01-15T08:15:00Z\ntitle: T\n---\n",
			want: "---\ntype: A\ngenerated: { by: human:ana, at: 2026-01-15T09:15:00+01:00 }\ntitle: T\n---\n",
		},
		{
			name: "CRLF line endings are kept",
			in:   "---\r\ntype: A\r\ntimestamp: 2026-01-15\r\n---\r\nText.\r\n\r\n## Citations\r\n- https://x.example/a\r\n",
			want: "---\r\ntype: A\r\ngenerated: { by: process:okf-migrate, at: 2026-01-15T00:00:00Z }\r\nsources:\r\n  - resource: https://x.example/a\r\n---\r\nText.\r\n",
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			dir := bundle(t, map[string]string{"c.md": tc.in})
			p := plan(t, dir)
			for _, l := range p.Left {
				t.Errorf("left: %s: %s", l.Pos, l.Message)
			}
			if got := newText(p, "c.md"); got != tc.want {
				t.Errorf("got:\n%q\nwant:\n%q", got, tc.want)
			}
		})
	}
}

// A file that cannot be migrated safely is untouched and listed with the reason.
func TestUnsafeFilesAreLeftAndListed(t *testing.T) {
	dir := bundle(t, map[string]string{
		"bad.md":   "---\ntype: A\ntimestamp: [oops\n---\n",
		"mixed.md": "---\ntype: A\ntimestamp: 2026-01-15T08:15:00Z\n---\n# Citations\n\nSee the handbook.\n\n- https://x.example/a\n",
		"both.md":  "---\ntype: A\ntimestamp: 2026-01-15T08:15:00Z\nsources:\n  - resource: https://y.example\n---\n# Citations\n- https://x.example/a\n",
		"gen.md":   "---\ntype: A\ngenerated: { by: human:ana, at: 2026-01-16T00:00:00Z }\ntimestamp: 2026-01-15T08:15:00Z\n---\n",
		"block.md": "---\ntype: A\ntimestamp: >-\n  2026-01-15T08:15:00Z\n---\n",
		"ok.md":    "---\ntype: A\ntags: \"x, y\"\n---\n",
	})
	p := plan(t, dir)
	left := map[string]string{}
	untouched := map[string]bool{}
	for _, l := range p.Left {
		left[l.Pos.Path] += l.Message
		untouched[l.Pos.Path] = untouched[l.Pos.Path] || l.Untouched
	}
	// Most concepts that needed a change were left untouched: the bundle is not logged as migrated
	// (nor declared v0.2), and the reason is listed.
	if log := newText(p, "log.md"); log != "" {
		t.Errorf("a bundle mostly left untouched is logged as migrated: %s", log)
	}
	if !strings.Contains(left[""], "3 of 4 concepts okf migrate had to change were left untouched") {
		t.Errorf("the bundle: %q, want the reason it is not logged", left[""])
	}
	for _, want := range []struct {
		path, says string
		untouched  bool
	}{
		{"bad.md", "no readable frontmatter", true},
		{"mixed.md", "holds more than a list", true},
		{"both.md", "both sources and a Citations section", true},
		{"gen.md", "generated is present", false},
		{"block.md", "not written on one line", true},
	} {
		if !strings.Contains(left[want.path], want.says) || untouched[want.path] != want.untouched {
			t.Errorf("%s: left %q (untouched %v), want %q (untouched %v)", want.path, left[want.path], untouched[want.path], want.says, want.untouched)
		}
		if want.untouched && newText(p, want.path) != "" {
			t.Errorf("%s: changed, want untouched", want.path)
		}
	}
}

func TestRootIndexVersion(t *testing.T) {
	cases := []struct{ name, in, want string }{
		{"no frontmatter", "# Bundle\n", "---\nokf_version: \"0.2\"\n---\n# Bundle\n"},
		{"0.1 single-quoted", "---\nokf_version: '0.1' # v1\n---\n# B\n", "---\nokf_version: '0.2' # v1\n---\n# B\n"},
		{"plain 0.1 becomes a string", "---\nokf_version: 0.1\n---\n", "---\nokf_version: \"0.2\"\n---\n"},
		{"look-alike key renamed", "---\nokf_spec_version: \"0.1\"\n---\n", "---\nokf_version: \"0.2\"\n---\n"},
		{"empty frontmatter", "---\n---\n# B\n", "---\nokf_version: \"0.2\"\n---\n# B\n"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			dir := bundle(t, map[string]string{"index.md": tc.in})
			p := plan(t, dir)
			if got := newText(p, "index.md"); got != tc.want {
				t.Errorf("got %q, want %q", got, tc.want)
			}
		})
	}
	// Already 0.2: nothing to do, and no log entry.
	dir := bundle(t, map[string]string{"index.md": "---\nokf_version: \"0.2\"\n---\n", "a.md": "---\ntype: A\n---\n"})
	if p := plan(t, dir); p.Changed() {
		t.Errorf("a v0.2 bundle changes: %s", p.Diff())
	}
}

func TestLogEntry(t *testing.T) {
	const entry = "- Migrated from OKF v0.1 to v0.2 with okf migrate (1 file): timestamp → generated.at in 1 concept (generated.by process:okf-migrate where the file named no producer: the author is unknown)."
	concept := "---\ntype: A\ntimestamp: 2026-01-15T08:15:00Z\n---\n"
	cases := []struct{ name, in, want string }{
		{"newest first", "# Log\n\n## 2026-06-13, first\n\n- Created.\n", "# Log\n\n## 2026-12-01\n\n" + entry + "\n\n## 2026-06-13, first\n\n- Created.\n"},
		{"today's group", "# Log\n\n## 2026-12-01\n\n- Other.\n", "# Log\n\n## 2026-12-01\n\n" + entry + "\n- Other.\n"},
		{"no group yet", "# Log\n", "# Log\n\n## 2026-12-01\n\n" + entry + "\n"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			dir := bundle(t, map[string]string{"c.md": concept, "log.md": tc.in})
			if got := newText(plan(t, dir), "log.md"); got != tc.want {
				t.Errorf("got %q\nwant %q", got, tc.want)
			}
		})
	}
	dir := bundle(t, map[string]string{"c.md": concept})
	if got := newText(plan(t, dir), "log.md"); got != "# Log\n\n## 2026-12-01\n\n"+entry+"\n" {
		t.Errorf("created log.md = %q", got)
	}
}

// Apply writes the plan, refuses a file changed meanwhile or a symbolic link, and a second run
// changes nothing.
func TestApply(t *testing.T) {
	dir := bundle(t, map[string]string{
		"a.md": "---\ntype: A\ntimestamp: 2026-01-15\n---\n",
		"b.md": "---\ntype: A\ntimestamp: 2026-01-15\n---\n",
	})
	p := plan(t, dir)
	if err := os.WriteFile(filepath.Join(dir, "b.md"), []byte("---\ntype: A\ntimestamp: 2026-01-16\n---\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	written, refused, err := migrate.Apply(dir, p)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(written, ",") != "a.md,log.md" || len(refused) != 1 || refused[0].Pos.Path != "b.md" {
		t.Fatalf("written %v, refused %+v", written, refused)
	}
	got, _ := os.ReadFile(filepath.Join(dir, "b.md"))
	if !strings.Contains(string(got), "2026-01-16") {
		t.Errorf("b.md was overwritten: %s", got)
	}
	p2 := plan(t, dir)
	if strings.Contains(p2.Diff(), "a.md") {
		t.Errorf("second run changes a.md:\n%s", p2.Diff())
	}
}

func TestApplyRefusesSymlink(t *testing.T) {
	outside := t.TempDir()
	target := filepath.Join(outside, "x.md")
	if err := os.WriteFile(target, []byte("---\ntype: A\ntimestamp: 2026-01-15\n---\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	dir := bundle(t, map[string]string{"a.md": "---\ntype: A\ntimestamp: 2026-01-15\n---\n"})
	p := plan(t, dir)
	// Replace a.md by a link after planning: the write must not follow it.
	os.Remove(filepath.Join(dir, "a.md"))
	if err := os.Symlink(target, filepath.Join(dir, "a.md")); err != nil {
		t.Skip("no symbolic links here")
	}
	_, refused, _ := migrate.Apply(dir, p)
	if len(refused) == 0 || refused[0].Pos.Path != "a.md" {
		t.Errorf("refused %+v, want a.md", refused)
	}
	got, _ := os.ReadFile(target)
	if strings.Contains(string(got), "generated") {
		t.Errorf("wrote through the link: %s", got)
	}
}

func TestDiff(t *testing.T) {
	dir := bundle(t, map[string]string{"log.md": "# Log\n", "c.md": "---\ntype: A\nl1: 1\nl2: 2\nl3: 3\ntimestamp: 2026-01-15\nl4: 4\n---\nBody.\n"})
	want := "--- a/c.md\n+++ b/c.md\n@@ -3,7 +3,7 @@\n l1: 1\n l2: 2\n l3: 3\n-timestamp: 2026-01-15\n+generated: { by: process:okf-migrate, at: 2026-01-15T00:00:00Z }\n l4: 4\n ---\n Body.\n" +
		"--- a/log.md\n+++ b/log.md\n@@ -1,1 +1,5 @@\n # Log\n+\n+## 2026-12-01\n+\n" +
		"+- Migrated from OKF v0.1 to v0.2 with okf migrate (1 file): timestamp → generated.at in 1 concept (generated.by process:okf-migrate where the file named no producer: the author is unknown).\n"
	if got := plan(t, dir).Diff(); got != want {
		t.Errorf("diff:\n%s\nwant:\n%s", got, want)
	}
}

// The --dry-run diff is a real patch: git apply turns a copy of the bundle into exactly what a run
// writes (skipped without git).
func TestDiffAppliesWithGit(t *testing.T) {
	git, err := exec.LookPath("git")
	if err != nil {
		t.Skip("git not installed")
	}
	files := map[string]string{
		"index.md": "# KB\n\n* [A](a.md)",
		"log.md":   "# Log\n\n## 2026-01-01\n\n- Made.\n",
		"a.md":     "---\ntype: A\ntags: \"x, y\"\ntimestamp: 2026-01-15 # c\nstale_after: 2026-02-01\n---\nText.\n\n# Citations\n\n- [P](https://p.example) more\n- plain words\n\n# Notes\nkept\n\n# Next\nend",
		"b.md":     "---\r\ntype: B\r\ntimestamp: '2026-01-15T08:00:00'\r\n---\r\nB.\r\n\r\n## Citations\r\n- https://b.example\r\n",
	}
	patched, written := bundle(t, files), bundle(t, files)
	p := plan(t, patched)
	if len(p.Changes) != 4 || len(p.Left) != 0 {
		t.Fatalf("want all 4 files migrated, got %d changes, left %+v", len(p.Changes), p.Left)
	}
	patch := filepath.Join(t.TempDir(), "m.patch")
	if err := os.WriteFile(patch, []byte(p.Diff()), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(git, "apply", "--whitespace=nowarn", patch)
	cmd.Dir = patched
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git apply: %v\n%s\n%s", err, out, p.Diff())
	}
	if _, refused, err := migrate.Apply(written, plan(t, written)); err != nil || len(refused) > 0 {
		t.Fatal(err, refused)
	}
	for name := range files {
		a, _ := os.ReadFile(filepath.Join(patched, name))
		b, _ := os.ReadFile(filepath.Join(written, name))
		if string(a) != string(b) {
			t.Errorf("%s: patched %q, written %q", name, a, b)
		}
	}
}

// A concept that is a symbolic link inside the bundle is planned as untouched, not refused at write
// time (which would make every run exit 3).
func TestSymlinkConceptIsLeft(t *testing.T) {
	dir := bundle(t, map[string]string{"real.md": "---\ntype: A\ntimestamp: 2026-01-15\n---\n"})
	if err := os.Symlink("real.md", filepath.Join(dir, "alias.md")); err != nil {
		t.Skip("no symbolic links here")
	}
	p := plan(t, dir)
	if newText(p, "alias.md") != "" || newText(p, "real.md") == "" {
		t.Errorf("changes: %s", p.Diff())
	}
	found := false
	for _, l := range p.Left {
		found = found || l.Pos.Path == "alias.md" && l.Untouched && strings.Contains(l.Message, "symbolic link")
	}
	if !found {
		t.Errorf("alias.md not listed: %+v", p.Left)
	}
	if _, refused, err := migrate.Apply(dir, p); err != nil || len(refused) > 0 {
		t.Errorf("apply: %v %+v", err, refused)
	}
}
