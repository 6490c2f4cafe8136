package okf

import (
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

// TestApplyChangesReadOnly: a file this user may not write (a person, or a build sandbox, made it
// read-only) is not rewritten. The rename that makes a write atomic replaced it anyway, where
// os.WriteFile, an editor or gofmt -w would have been refused. Root may write any file, as
// os.WriteFile may: run this test as another user to see it (go test -c; runuser -u nobody).
func TestApplyChangesReadOnly(t *testing.T) {
	if runtime.GOOS != "windows" && os.Geteuid() == 0 {
		t.Skip("root may write a read-only file")
	}
	root := t.TempDir()
	full := filepath.Join(root, "a.md")
	if err := os.WriteFile(full, []byte("old"), 0o444); err != nil {
		t.Fatal(err)
	}
	written, refused, err := ApplyChanges(root, []FileChange{{Path: "a.md", Old: []byte("old"), New: []byte("new")}})
	if err != nil {
		t.Fatal(err)
	}
	if len(written) != 0 || len(refused) != 1 || refused[0].Why != "is read-only: not rewritten" {
		t.Errorf("written %q, refused %+v; want a.md refused as read-only", written, refused)
	}
	if got, _ := os.ReadFile(full); string(got) != "old" {
		t.Errorf("a.md now holds %q", got)
	}
}
