package okf

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
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

// ApplyChanges writes changes into the bundle at root, the one way okf edits a bundle. A file is
// written only when it still holds what the change was planned from (read again through the
// confined Root: an edit made meanwhile is never overwritten), a new file only when it is still
// absent, and never through a symbolic link — not at the file, not at a folder on its way, wherever
// the link leads (one policy for every write okf makes in a checkout: inside it is not the same as
// written by whoever wrote the bundle). Missing folders are made inside the root. Writes are atomic and keep the file's permission bits
// (WriteFileAtomic). It returns the paths written, in order, and the changes refused; err is set
// when the bundle itself cannot be opened.
func ApplyChanges(root string, changes []FileChange) (written []string, refused []ChangeRefused, err error) {
	r, err := OpenRoot(root, 0)
	if err != nil {
		return nil, nil, err
	}
	defer r.Close()
	for _, c := range changes {
		if why := linkOnPath(r, c.Path); why != "" {
			refused = append(refused, ChangeRefused{c.Path, why + ": not rewritten"})
			continue
		}
		cur, err := r.ReadFile(c.Path)
		switch {
		case c.Old == nil && err == nil:
			refused = append(refused, ChangeRefused{c.Path, "was created meanwhile: not overwritten"})
			continue
		case c.Old == nil && !errors.Is(err, fs.ErrNotExist):
			refused = append(refused, ChangeRefused{c.Path, fmt.Sprintf("cannot check: %v", unwrapPath(err))})
			continue
		case c.Old != nil && (err != nil || !bytes.Equal(cur, c.Old)):
			refused = append(refused, ChangeRefused{c.Path, "changed since it was read: not rewritten"})
			continue
		}
		if dir := path.Dir(c.Path); dir != "." && r.osRoot != nil {
			// Missing folders are made through the confined root: never outside it.
			if err := r.osRoot.MkdirAll(dir, 0o755); err != nil {
				refused = append(refused, ChangeRefused{c.Path, fmt.Sprintf("cannot make its folder: %v", unwrapPath(err))})
				continue
			}
		}
		if err := WriteFileAtomic(filepath.Join(root, filepath.FromSlash(c.Path)), c.New, 0o644); err != nil {
			refused = append(refused, ChangeRefused{c.Path, fmt.Sprintf("cannot write: %v", unwrapPath(err))})
			continue
		}
		written = append(written, c.Path)
	}
	return written, refused, nil
}

// linkOnPath says why p (a slash path in r) must not be written: a symbolic link at it or at a
// folder on its way ("" when none). Folders that do not exist yet are not looked at.
func linkOnPath(r *Root, p string) string {
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
