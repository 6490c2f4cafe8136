package main

import (
	"fmt"
	"os"
	"path/filepath"
)

// writeFileAtomic writes through a temporary file in the same folder and renames it into place, so
// a reader (or a CI step) never sees half a report, receipt or baseline, and a failed write leaves
// the old file as it was.
func writeFileAtomic(path string, data []byte) error {
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp*")
	if err != nil {
		return err
	}
	tmp := f.Name()
	defer os.Remove(tmp) // a no-op once renamed
	if _, err := f.Write(data); err != nil {
		f.Close()
		return err
	}
	if err := f.Chmod(0o644); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	return os.Rename(tmp, path)
}

// countOf writes "1 warning" or "2 warnings".
func countOf(n int, word string) string {
	if n == 1 {
		return fmt.Sprintf("%d %s", n, word)
	}
	return fmt.Sprintf("%d %ss", n, word)
}
