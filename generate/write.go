package generate

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
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
//
// A target that is a symbolic link, or under a folder that is one, is refused (never written
// through, as okf.ApplyChanges refuses it). A target that is not a regular file (a FIFO, a device)
// is refused and never replaced. A folder on the way that leads outside Within is
// refused too. An existing file keeps its permissions.
type AtomicWriter struct {
	// Perm is the mode of new files (0644 when zero).
	Perm os.FileMode
	// Within is the folder every write must stay inside (after following links); ApplyChanges
	// sets it to the bundle. Empty means no such check.
	Within string
	// createTemp is os.CreateTemp; tests replace it with one whose writes fail.
	createTemp func(dir, pattern string) (tempFile, error)
}

// WriteFile writes data to name atomically, creating missing folders, only once the folders that
// exist already are known to stay inside Within: no folder is ever made outside it.
func (w AtomicWriter) WriteFile(name string, data []byte) (err error) {
	if w.Within != "" {
		if err := checkWithin(w.Within, filepath.Dir(name)); err != nil {
			return fmt.Errorf("%s: %w; not written", name, err)
		}
		if err := noLinkBelow(w.Within, name); err != nil {
			return err
		}
	}
	if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
		return err
	}
	var existing os.FileInfo
	if fi, err := os.Lstat(name); err == nil {
		if fi.Mode()&os.ModeSymlink != 0 {
			// Never written through: a link in a bundle may lead anywhere in the checkout,
			// its .git folder included (index.md -> .git/config), as okf.ApplyChanges refuses.
			return fmt.Errorf("%s is a symbolic link: not written (okf writes a bundle's files as files, never through a link)", name)
		}
		if !fi.Mode().IsRegular() {
			return fmt.Errorf("%s is not a regular file (%s); not written", name, fi.Mode().Type())
		}
		existing = fi
	}
	dir := filepath.Dir(name)
	if w.Within != "" {
		if err := checkWithin(w.Within, dir); err != nil {
			return fmt.Errorf("%s: %w; not written", name, err)
		}
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
	if existing != nil {
		perm = existing.Mode().Perm() // keep the mode a person gave the file
	}
	if err = os.Chmod(tmp, perm); err != nil {
		return err
	}
	return os.Rename(tmp, name)
}

// noLinkBelow refuses name when a folder between root and it (root excluded) is a symbolic link or
// a .git folder: a bundle's files are written in its own folders, never through a link, and never
// into a repository's folder. Folders that do not exist yet are made afterwards, as folders.
func noLinkBelow(root, name string) error {
	rel, err := filepath.Rel(root, filepath.Dir(name))
	if err != nil || rel == "." {
		return nil
	}
	cur := root
	for _, part := range strings.Split(rel, string(filepath.Separator)) {
		if strings.EqualFold(part, ".git") {
			return fmt.Errorf("%s is inside a .git folder: not written", name)
		}
		cur = filepath.Join(cur, part)
		fi, err := os.Lstat(cur)
		if err != nil {
			return nil // the rest does not exist yet
		}
		if fi.Mode()&os.ModeSymlink != 0 {
			return fmt.Errorf("%s: its folder %s is a symbolic link: not written (okf writes a bundle's files in its own folders, never through a link)", name, cur)
		}
	}
	return nil
}

// checkWithin refuses a folder that, once its links are followed, is not root or below it. Either
// may not exist yet: the part that exists is resolved and the rest, which holds no link, appended.
func checkWithin(root, dir string) error {
	r, err := resolveExisting(root)
	if err != nil {
		return err
	}
	d, err := resolveExisting(dir)
	if err != nil {
		return err
	}
	rel, err := filepath.Rel(r, d)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) || filepath.IsAbs(rel) {
		return fmt.Errorf("a symbolic link leads outside %s", root)
	}
	return nil
}

// resolveExisting is filepath.EvalSymlinks for a path whose last folders may not exist yet: its
// nearest part that exists (a link counts, even to nowhere, and then fails) is resolved, and the
// rest appended as it is.
func resolveExisting(p string) (string, error) {
	p, err := filepath.Abs(p)
	if err != nil {
		return "", err
	}
	rest := ""
	for {
		if _, err := os.Lstat(p); err == nil {
			break
		}
		up := filepath.Dir(p)
		if up == p {
			break
		}
		rest = filepath.Join(filepath.Base(p), rest)
		p = up
	}
	r, err := filepath.EvalSymlinks(p)
	if err != nil {
		return "", err
	}
	return filepath.Join(r, rest), nil
}
