package generate

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
)

// Writer writes one whole file. Runs write through it so that tests can make a write fail.
type Writer interface {
	WriteFile(name string, data []byte) error
}

// tempFile is the part of *os.File an atomic write uses.
type tempFile interface {
	io.Writer
	Name() string
	Sync() error
	Close() error
}

// AtomicWriter writes each file to a hidden temporary file in the same folder and renames it over
// the target, so a reader (or a run killed half-way) sees the old file or the new one, never a
// half-written one. The temporary name starts with "." so OKF loaders skip it (D5).
type AtomicWriter struct {
	// Perm is the mode of new files (0644 when zero).
	Perm os.FileMode
	// createTemp is os.CreateTemp; tests replace it with one whose writes fail.
	createTemp func(dir, pattern string) (tempFile, error)
}

// WriteFile writes data to name atomically, creating missing folders.
func (w AtomicWriter) WriteFile(name string, data []byte) (err error) {
	dir := filepath.Dir(name)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	create := w.createTemp
	if create == nil {
		create = func(dir, pattern string) (tempFile, error) { return os.CreateTemp(dir, pattern) }
	}
	f, err := create(dir, "."+filepath.Base(name)+".tmp-*")
	if err != nil {
		return err
	}
	tmp := f.Name()
	defer func() {
		if err != nil {
			_ = f.Close()
			_ = os.Remove(tmp)
		}
	}()
	if _, err = f.Write(data); err != nil {
		return fmt.Errorf("writing %s: %w", name, err)
	}
	if err = f.Sync(); err != nil {
		return fmt.Errorf("writing %s: %w", name, err)
	}
	if err = f.Close(); err != nil {
		return fmt.Errorf("writing %s: %w", name, err)
	}
	perm := w.Perm
	if perm == 0 {
		perm = 0o644
	}
	if fi, statErr := os.Stat(name); statErr == nil {
		perm = fi.Mode().Perm() // keep the mode a person gave the file
	}
	if err = os.Chmod(tmp, perm); err != nil {
		return err
	}
	return os.Rename(tmp, name)
}
