package migrate

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"

	"github.com/okf-tools/okf/okf"
)

// Apply writes the plan's changes into the bundle at root, each file through okf.WriteFileAtomic.
// A file is written only when it still holds what the plan was made from (read again through the
// confined okf.Root) and is not a symbolic link, so okf never writes outside the bundle or over a
// change made meanwhile. It returns the paths written and a problem per file it refused.
func Apply(root string, p *Plan) (written []string, refused []Problem, err error) {
	r, err := okf.OpenRoot(root, 0)
	if err != nil {
		return nil, nil, err
	}
	defer r.Close()
	for _, c := range p.Changes {
		pos := okf.Position{Path: c.Path, Line: 1, Col: 1}
		if st, err := r.Lstat(c.Path); err == nil && st.Mode()&fs.ModeSymlink != 0 {
			refused = append(refused, Problem{Pos: pos, Message: "is a symbolic link: not rewritten", Untouched: true})
			continue
		} else if err != nil && !errors.Is(err, fs.ErrNotExist) {
			refused = append(refused, Problem{Pos: pos, Message: fmt.Sprintf("cannot check: %v", err), Untouched: true})
			continue
		}
		cur, err := r.ReadFile(c.Path)
		switch {
		case c.Old == nil && err == nil:
			refused = append(refused, Problem{Pos: pos, Message: "was created meanwhile: not overwritten", Untouched: true})
			continue
		case c.Old != nil && (err != nil || !bytes.Equal(cur, c.Old)):
			refused = append(refused, Problem{Pos: pos, Message: "changed since it was read: not rewritten", Untouched: true})
			continue
		}
		if err := okf.WriteFileAtomic(filepath.Join(root, filepath.FromSlash(c.Path)), c.New, 0o644); err != nil {
			var pe *fs.PathError
			if errors.As(err, &pe) {
				err = pe.Err
			}
			refused = append(refused, Problem{Pos: pos, Message: fmt.Sprintf("cannot write: %v", err), Untouched: true})
			continue
		}
		written = append(written, c.Path)
	}
	return written, refused, nil
}
