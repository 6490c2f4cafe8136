package okf

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
)

// FileChange is one rewrite of one file of a bundle: its slash path from the bundle root, the
// bytes it held when the change was planned (nil: the file is new), and the bytes to write. It is
// the unit every command that edits a bundle hands to ApplyChanges (okf migrate, okf lint --fix).
type FileChange struct {
	Path     string
	Old, New []byte
}

// Verb names the change: "create" or "update".
func (c FileChange) Verb() string {
	if c.Old == nil {
		return "create"
	}
	return "update"
}

// ChangeRefused is a change ApplyChanges did not write, and why (the file is untouched).
type ChangeRefused struct {
	Path string
	Why  string
}

// ApplyChanges writes changes into the bundle at root, the one way okf edits a bundle (okf gen,
// okf index, okf migrate, okf lint --fix and --write-baseline all write through it), each change on
// its own: a refused one leaves the others to be written. It is ApplyChangesWith with no options.
func ApplyChanges(root string, changes []FileChange) (written []string, refused []ChangeRefused, err error) {
	return ApplyChangesWith(root, changes, ApplyOptions{})
}

// ApplyOptions change how ApplyChangesWith goes through a set of changes.
type ApplyOptions struct {
	// InOrder stops at the first change refused: the later changes of the set depend on the
	// earlier ones (okf gen writes log.md last, so the log never records a file it did not write).
	// The changes not tried are neither written nor refused.
	InOrder bool
	// WriteFile replaces WriteFileAtomic for the last step, once every check has passed: tests make
	// a write fail, or stop half-way as a killed process would, through it. Nil is WriteFileAtomic.
	WriteFile func(name string, data []byte, perm fs.FileMode) error
}

// ApplyChangesWith writes changes into the bundle at root, the one way okf edits a bundle. A file is
// written only when it still holds what the change was planned from (read again through the
// confined Root: an edit made meanwhile is never overwritten), a new file only when it is still
// absent, and never through a symbolic link — not at the file, not at a folder on its way, wherever
// the link leads (one policy for every write okf makes in a checkout: inside it is not the same as
// written by whoever wrote the bundle) — nor into a .git folder. Missing folders are made inside the
// root. Writes are atomic and keep the file's permission bits (WriteFileAtomic). It returns the
// paths written, in order, and the changes refused; err is set when the bundle itself cannot be
// opened. Hold the bundle's lock (LockBundle) from reading the files to applying the changes.
func ApplyChangesWith(root string, changes []FileChange, o ApplyOptions) (written []string, refused []ChangeRefused, err error) {
	// The files were read already, so their size is known: a limit below it would make the check
	// below refuse a file nobody changed.
	limit := int64(DefaultMaxFileSize)
	for _, c := range changes {
		if n := int64(len(c.Old)) + 1; n > limit {
			limit = n
		}
	}
	r, err := OpenFileSystem(root, limit)
	if err != nil {
		return nil, nil, err
	}
	defer r.Close()
	write := o.WriteFile
	if write == nil {
		write = WriteFileAtomic
	}
	for _, c := range changes {
		if why := checkChange(r, c); why != "" {
			refused = append(refused, ChangeRefused{c.Path, why})
			if o.InOrder {
				break
			}
			continue
		}
		if err := write(filepath.Join(root, filepath.FromSlash(c.Path)), c.New, 0o644); err != nil {
			refused = append(refused, ChangeRefused{c.Path, fmt.Sprintf("cannot write: %v", unwrapPath(err))})
			if o.InOrder {
				break
			}
			continue
		}
		written = append(written, c.Path)
	}
	return written, refused, nil
}

// checkChange says why c must not be written into r ("" when it may), making the folders it needs.
func checkChange(r *FileSystem, c FileChange) string {
	if why := checkPath(r, c.Path); why != "" {
		if c.Old == nil {
			return why
		}
		return strings.TrimSuffix(why, "not written") + "not rewritten"
	}
	cur, err := r.ReadFile(c.Path)
	switch {
	case c.Old == nil && err == nil:
		return "was created meanwhile: not overwritten"
	case c.Old == nil && !errors.Is(err, fs.ErrNotExist):
		return fmt.Sprintf("cannot check: %v", unwrapPath(err))
	case c.Old != nil && (err != nil || !bytes.Equal(cur, c.Old)):
		return "changed since it was read: not rewritten"
	}
	if c.Old != nil && r.osFS != nil {
		// The rename that makes the write atomic would replace a file this user may not write (a
		// person, or a build sandbox, made it read-only), where os.WriteFile, an editor or gofmt -w
		// is refused: the file is opened for writing first (nothing is written, no link followed).
		f, err := r.osFS.OpenFile(filepath.FromSlash(c.Path), os.O_WRONLY|openNonblock, 0)
		if errors.Is(err, fs.ErrPermission) {
			return "is read-only: not rewritten"
		}
		if err == nil {
			f.Close()
		}
	}
	if dir := path.Dir(c.Path); dir != "." && r.osFS != nil {
		// Missing folders are made through the confined file system: never outside the root.
		if err := r.osFS.MkdirAll(filepath.FromSlash(dir), 0o755); err != nil {
			return fmt.Sprintf("cannot make its folder: %v", unwrapPath(err))
		}
	}
	return ""
}

// checkPath says why no file may be written at p in r ("" when one may): not a path inside the
// bundle, inside a .git folder, or a symbolic link at it or on its way.
func checkPath(r *FileSystem, p string) string {
	if !fs.ValidPath(p) || p == "." {
		return "is not a path inside the bundle: not written"
	}
	for _, part := range strings.Split(p, "/") {
		if strings.EqualFold(part, ".git") {
			return "is inside a .git folder: not written"
		}
	}
	if why := linkOnPath(r, p); why != "" {
		return why + ": not written"
	}
	return ""
}

// linkOnPath says why p (a slash path in r) must not be written: a symbolic link at it or at a
// folder on its way ("" when none). Folders that do not exist yet are not looked at.
func linkOnPath(r *FileSystem, p string) string {
	parts := strings.Split(p, "/")
	for i := range parts {
		sub := path.Join(parts[:i+1]...)
		st, err := r.Lstat(sub)
		if errors.Is(err, fs.ErrNotExist) {
			return ""
		}
		if err != nil {
			return fmt.Sprintf("cannot check %s: %v", sub, unwrapPath(err))
		}
		if st.Mode()&fs.ModeSymlink != 0 {
			if sub == p {
				return "is a symbolic link"
			}
			return fmt.Sprintf("its folder %s is a symbolic link", sub)
		}
	}
	return ""
}

// ReadForChange reads the file at p (a slash path in r) as a change of it must be planned from: its
// bytes, nil when there is no such file (the change creates it), or the reason ApplyChanges would
// refuse it (a symbolic link at it or on its way, a .git folder) as an error.
func ReadForChange(r *FileSystem, p string) ([]byte, error) {
	if why := checkPath(r, p); why != "" {
		return nil, &fs.PathError{Op: "write", Path: p, Err: errors.New(why)}
	}
	data, err := r.ReadFile(p)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil, nil
	case err != nil:
		return nil, err
	case data == nil:
		return []byte{}, nil // there, and empty: not absent
	}
	return data, nil
}
