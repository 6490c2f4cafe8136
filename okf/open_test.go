package okf

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"
)

// TestOpenPathFindsRootAndScope: the one opening call finds the root of a folder or file below it,
// reads the root's .okf.yaml (its ignore list applies to every Load), and says which part of the
// bundle the path names.
func TestOpenPathFindsRootAndScope(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		".git/HEAD":          "ref: x\n",
		"kb/.okf.yaml":       "ignore: [\"sub/drafts/**\"]\nmax_file_size: 1KiB\n",
		"kb/index.md":        "# KB\n",
		"kb/a.md":            "---\ntype: Note\n---\n# A\n",
		"kb/sub/b.md":        "---\ntype: Note\n---\n# B\n",
		"kb/sub/drafts/x.md": "---\ntype: Note\n---\n# X\n",
	})
	t.Chdir(dir)
	for _, c := range []struct{ path, root, scope string }{
		{"kb", "kb", ""},
		{"kb/sub", "kb", "sub/"},
		{"kb/sub/b.md", "kb", "sub/b.md"},
	} {
		o, err := OpenPath(c.path, 0)
		if err != nil {
			t.Fatalf("OpenPath(%s): %v", c.path, err)
		}
		if o.Target.Root != c.root || o.Target.Scope() != c.scope {
			t.Errorf("OpenPath(%s): root %q scope %q, want %q %q", c.path, o.Target.Root, o.Target.Scope(), c.root, c.scope)
		}
		if o.Config == nil || o.Config.Path != "kb/.okf.yaml" || o.FileSystem.MaxFileSize() != 1<<10 {
			t.Errorf("OpenPath(%s): config %+v, limit %d", c.path, o.Config, o.FileSystem.MaxFileSize())
		}
		b, err := o.Load(LoadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		var ids []string
		for _, cc := range b.Concepts {
			ids = append(ids, cc.ID)
		}
		if strings.Join(ids, ",") != "a,sub/b" {
			t.Errorf("OpenPath(%s) loads %v, want a and sub/b (sub/drafts ignored)", c.path, ids)
		}
		o.FileSystem.Close()
	}
	// The flag's limit wins over the configuration's.
	o, err := OpenPath("kb", 5<<20)
	if err != nil || o.FileSystem.MaxFileSize() != 5<<20 {
		t.Errorf("--max-file-size: %v %d", err, o.FileSystem.MaxFileSize())
	}
}

// TestOpenPathRefusesNoBundle: a path that does not exist, a folder with no Markdown file and no
// bundle above, and a file with no bundle above are one kind of error, a *NotBundleError.
func TestOpenPathRefusesNoBundle(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{".git/HEAD": "x\n", "empty/n.txt": "x\n", "loose/a.md": "# A\n", "nomd/sub/n.txt": "x\n"})
	t.Chdir(dir)
	for _, c := range []struct {
		path, msg string
		file      bool
	}{
		{"nowhere", `"nowhere" is not an OKF bundle: it does not exist`, false},
		{"empty", `"empty" is not an OKF bundle: it holds no Markdown file, and no folder above it holds .okf.yaml or index.md`, false},
		{"nomd/sub", `"nomd/sub" is not an OKF bundle: it holds no Markdown file`, false},
		{"loose/a.md", `"loose/a.md" is not in an OKF bundle: no folder at or above it holds .okf.yaml or index.md`, true},
	} {
		_, err := OpenPath(c.path, 0)
		var nb *NotBundleError
		if !errors.As(err, &nb) || !strings.HasPrefix(nb.Msg, c.msg) || nb.File != c.file || nb.Path != c.path {
			t.Errorf("OpenPath(%s) = %v, want a NotBundleError %q (file %v)", c.path, err, c.msg, c.file)
		}
	}
	// A folder holding Markdown with no bundle above is its own root.
	if o, err := OpenPath("loose", 0); err != nil || o.Target.Root != "loose" || o.Target.Scope() != "" {
		t.Errorf("loose: %v", err)
	}
}

// TestOpenRefusesBadConfig: Open checks the whole .okf.yaml, lint's keys included, and refuses it
// with every problem at its position; an unreadable one and a .okf.yml are refused the same way.
func TestOpenRefusesBadConfig(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"bad/.okf.yaml":   "ignores: [x]\nrules:\n  OKF001: errror\nmax_file_size: lots\n",
		"bad/index.md":    "# B\n",
		"yml/.okf.yml":    "rules: {}\n",
		"yml/index.md":    "# Y\n",
		"empty/.okf.yaml": "# only a comment\n",
		"empty/index.md":  "# E\n",
	})
	_, err := Open(filepath.Join(dir, "bad"), 0)
	var ce *ConfigError
	if !errors.As(err, &ce) {
		t.Fatalf("bad: %v, want a ConfigError", err)
	}
	shown := filepath.ToSlash(filepath.Join(dir, "bad", ".okf.yaml"))
	want := []string{
		shown + `:1:1: unknown key "ignores"; did you mean "ignore"?`,
		shown + `:3:11: rules: OKF001: want off, error, warning or info, found "errror"; did you mean "error"?`,
		shown + `:4:16: max_file_size must be a size such as 8MiB, 512KiB or a number of bytes, found "lots"`,
	}
	if err.Error() != strings.Join(want, "\n") || ce.Path != shown {
		t.Errorf("problems:\n%v\nwant:\n%s", err, strings.Join(want, "\n"))
	}
	_, err = Open(filepath.Join(dir, "yml"), 0)
	if !errors.As(err, &ce) || !strings.HasSuffix(err.Error(), "yml/.okf.yml: okf reads its configuration from .okf.yaml, not .okf.yml: rename the file") {
		t.Errorf("yml: %v", err)
	}
	if o, err := Open(filepath.Join(dir, "empty"), 0); err != nil || o.Config == nil || len(o.Settings.Ignore) != 0 {
		t.Errorf("a configuration with nothing in it: %v", err)
	}
	if o, err := OpenFS(fstest.MapFS{".okf.yaml": {Data: []byte("colour: x\n")}}, 0); err == nil || o != nil || !strings.HasPrefix(err.Error(), `.okf.yaml:1:1: unknown key "colour"`) {
		t.Errorf("OpenFS: %v", err)
	}
}

// TestParseConfigLenient: beside its error, ParseConfig returns what could be read, so a caller
// that must go on (the base revision of okf trust --base) can; ParseSettings is that reading.
func TestParseConfigLenient(t *testing.T) {
	s, err := ParseSettings([]byte("ignore: [a.md]\ncolour: x\n"))
	if err == nil || len(s.Ignore) != 1 || s.Ignore[0] != "a.md" {
		t.Errorf("ParseSettings = %+v, %v", s, err)
	}
}

func writeFiles(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, text := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
