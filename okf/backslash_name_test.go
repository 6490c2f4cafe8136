package okf

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// TestBackslashNameMessage: a file whose name holds a backslash (a folder separator on Windows, so
// okf's reader refuses it) is reported as that, not as a path leading outside the bundle, which
// sent the reader looking for a symbolic link that is not there.
func TestBackslashNameMessage(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("no such name on Windows")
	}
	dir := t.TempDir()
	for name, text := range map[string]string{
		"index.md":      "# C\n\n* [A](a.md)\n",
		"a.md":          "---\ntype: T\n---\nBody.\n",
		`back\slash.md`: "---\ntype: T\n---\nBody.\n",
	} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	b, err := LoadDir(dir, LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, d := range b.Diagnostics {
		if d.Code == CodeUnreadable {
			got = append(got, d.Pos.Path+": "+d.Message)
		}
	}
	want := `back\slash.md: not read: the name holds a backslash, a folder separator on Windows: rename the file`
	if len(got) != 1 || got[0] != want {
		t.Errorf("got %q\nwant %q", got, want)
	}
	if strings.Contains(strings.Join(got, ""), "outside") {
		t.Error("says outside")
	}
}
