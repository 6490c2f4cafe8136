package okf

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

func writeTree(t *testing.T, root string, files ...string) {
	t.Helper()
	for _, f := range files {
		p := filepath.Join(root, filepath.FromSlash(f))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// TestFindRoot checks the one rule: the nearest .okf.yaml, else the top of the unbroken chain of
// index.md folders starting at the first one met; the walk stops at a .git folder.
func TestFindRoot(t *testing.T) {
	dir := t.TempDir()
	writeTree(t, dir,
		"repo/.git/HEAD",
		"repo/index.md", // the repository's top holds an index.md, but the walk stops there
		"repo/a/.okf.yaml", "repo/a/index.md", "repo/a/b/index.md", "repo/a/b/c/x.md",
		"repo/docs/index.md", "repo/docs/guide/index.md", "repo/docs/guide/deep/y.md",
		"repo/gap/index.md", "repo/gap/none/index.md",
		"repo/loose/z.md",
	)
	r := func(p string) string { return filepath.Join(dir, "repo", filepath.FromSlash(p)) }
	for _, tc := range []struct{ from, want string }{
		{"a/b/c", "a"},           // .okf.yaml wins over the index chain, which goes on above it
		{"a", "a"},               // .okf.yaml in the folder itself
		{"docs/guide/deep", "."}, // deep has no index.md: the chain starts at guide and reaches the repository top
		{"gap/none", "."},        // gap/none → gap → repo, all with index.md
		{"loose", "."},           // no index.md in loose: the first one met is the repository's
	} {
		got, ok := FindRoot(r(tc.from))
		if !ok || got != r(tc.want) {
			t.Errorf("FindRoot(%s) = %q, %v; want %q", tc.from, got, ok, r(tc.want))
		}
	}
	// Without the repository's index.md, a folder with none above it has no root: the walk stops at .git.
	os.Remove(r("index.md"))
	if got, ok := FindRoot(r("loose")); ok {
		t.Errorf("FindRoot(loose) = %q, want none", got)
	}
}

// TestLocate checks paths of several bundles are grouped per bundle, a folder below the
// root limits the findings to it, and the root itself means the whole bundle.
func TestLocate(t *testing.T) {
	dir := t.TempDir()
	writeTree(t, dir, ".git/HEAD", "a/.okf.yaml", "a/t/x.md", "a/y.md", "b/index.md", "b/s/index.md", "b/s/z.md", "empty/n.txt", "README.md")
	t.Chdir(dir)
	ts, skipped, err := Locate([]string{"b/s/z.md", "a/t", "a/y.md"}, LocateOptions{})
	if err != nil || len(skipped) != 0 {
		t.Fatal(err, skipped)
	}
	want := []Target{
		{Root: "a", Files: []string{"y.md"}, Dirs: []string{"t"}, Named: "a/t"},
		{Root: "b", Files: []string{"s/z.md"}, Named: "b/s/z.md"},
	}
	if !reflect.DeepEqual(ts, want) {
		t.Errorf("targets %+v, want %+v", ts, want)
	}
	if f := ts[0].Filter(); !f("t/x.md") || !f("y.md") || f("other.md") || f("tx.md") {
		t.Error("the filter of a/ does not keep exactly t/… and y.md")
	}
	ts, _, err = Locate([]string{"a/t", "a"}, LocateOptions{})
	if err != nil || len(ts) != 1 || ts[0].Filter() != nil {
		t.Errorf("a and a/t: %+v %v, want the whole bundle", ts, err)
	}
	if _, _, err := Locate([]string{"empty"}, LocateOptions{}); err == nil {
		t.Error("a folder with no Markdown file is not a bundle")
	}
	if _, _, err := Locate([]string{"README.md"}, LocateOptions{}); err == nil {
		t.Error("a file in no bundle is an error")
	}
	ts, skipped, err = Locate([]string{"README.md", "a/y.md"}, LocateOptions{SkipUnbundled: true})
	if err != nil || len(ts) != 1 || !reflect.DeepEqual(skipped, []string{"README.md"}) {
		t.Errorf("--skip-unbundled: %+v %v %v", ts, skipped, err)
	}
}
