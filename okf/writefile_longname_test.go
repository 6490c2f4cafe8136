package okf

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestWriteFileAtomicLongName: a file whose name is near the 255-byte limit of a name can be
// rewritten: the temporary file beside it, named after it, was 18 bytes longer, so every write of
// a file with a name over 237 bytes failed with "file name too long" (okf lint --fix, gen,
// migrate, index alike). The temporary name is cut instead, at a character boundary.
func TestWriteFileAtomicLongName(t *testing.T) {
	dir := t.TempDir()
	for _, base := range []string{strings.Repeat("L", 250) + ".md", strings.Repeat("é", 125) + ".md"} {
		name := filepath.Join(dir, base)
		if err := os.WriteFile(name, []byte("old"), 0o644); err != nil {
			t.Skip("this file system does not take the name:", err)
		}
		if err := WriteFileAtomic(name, []byte("new"), 0o644); err != nil {
			t.Fatalf("%d-byte name: %v", len(base), err)
		}
		if got, _ := os.ReadFile(name); string(got) != "new" {
			t.Errorf("%d-byte name holds %q", len(base), got)
		}
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 2 {
		t.Errorf("left %d files, want 2", len(entries))
	}
}
