package skill

import (
	"strings"
	"testing"
	"testing/fstest"

	"github.com/okf-tools/okf/okf"
)

// FuzzBuild: whatever a bundle's titles, types, index entries and file names hold, the skill's
// metadata stays within the limits and reads back as written, and every file is reachable.
func FuzzBuild(f *testing.F) {
	f.Add("Revenue", "Metric", "metrics", "a (b).md", "x")
	f.Add("\"quoted\"\n--- \\x", "<b>", "dir with space", "[x](y).md", "\u202e\u0000")
	f.Add(strings.Repeat("é", 300), strings.Repeat("\U0001F600", 70), "a/b/c", "%41.md", "`code`")
	f.Fuzz(func(t *testing.T, title, typ, folder, file, name string) {
		if !okfPath(folder) || !okfPath(file) {
			t.Skip()
		}
		fm := "---\ntype: " + yamlString(typ) + "\ntitle: " + yamlString(title) + "\n---\nbody\n"
		fsys := fstest.MapFS{
			"index.md":                   {Data: []byte("# I\n\n* [" + title + "](" + folder + "/index.md) - d\n")},
			folder + "/index.md":         {Data: []byte("# F\n\n* [T](" + file + ") - d\n")},
			folder + "/" + file:          {Data: []byte(fm)},
			folder + "/" + file + "2.md": {Data: []byte("no frontmatter " + title)},
		}
		b, err := okf.Load(fsys, okf.LoadOptions{})
		if err != nil {
			t.Skip()
		}
		s, err := Build(b, Options{BundleName: name})
		if err != nil {
			t.Fatal(err)
		}
		checkLimits(t, s)
		if n := Tokens(s.Body()); n > BodyGuideline {
			t.Errorf("body %d tokens", n)
		}
	})
}

// okfPath reports whether p is a plain relative path a bundle could hold (fstest.MapFS needs a
// valid one, and no reserved or hidden name).
func okfPath(p string) bool {
	if p == "" || len(p) > 100 || strings.ContainsAny(p, "\x00\\") {
		return false
	}
	for _, part := range strings.Split(p, "/") {
		if part == "" || part == "." || part == ".." || strings.HasPrefix(part, ".") || part == "index.md" || part == "log.md" {
			return false
		}
	}
	return true
}
