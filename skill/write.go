package skill

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/okf-tools/okf/okf"
)

// ErrOutInBundle is Write refusing a skill folder inside the bundle it is made from.
var ErrOutInBundle = errors.New("the skill cannot be written inside its bundle")

// inside reports whether the folder out is root or below it, links resolved as far as out exists.
func inside(out, root string) bool {
	if root == "" {
		return false
	}
	r, err := filepath.Abs(root)
	if err != nil {
		return false
	}
	if e, err := filepath.EvalSymlinks(r); err == nil {
		r = e
	}
	o, err := filepath.Abs(out)
	if err != nil {
		return false
	}
	// Resolve the longest part of out that exists.
	rest := ""
	for p := o; ; p = filepath.Dir(p) {
		if e, err := filepath.EvalSymlinks(p); err == nil {
			o = filepath.Join(e, rest)
			break
		}
		if filepath.Dir(p) == p {
			break
		}
		rest = filepath.Join(filepath.Base(p), rest)
	}
	rel, err := filepath.Rel(r, o)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}

// Written is what Write did: the skill folder, the files written and left as they were (slash
// paths inside the skill folder), and findings (files refused, files left from an earlier build).
type Written struct {
	Dir       string
	Written   []string
	Unchanged int
	Findings  []Finding
}

// Write puts the skill into the folder out/<name> (a skill's folder is named as the skill, as the
// Agent Skills spec requires), making out when it is missing. Every file goes through
// okf.ApplyChanges: never through a symbolic link, never over a file changed since it was read; a
// file already holding its bytes is not written again, so a rebuild from the same bundle changes
// nothing. A file in the skill folder that this build does not make is reported (CodeLeftOver),
// never removed. The error is set when out cannot be made or opened.
func Write(out string, s *Skill) (*Written, error) {
	if inside(out, s.Root) {
		return nil, fmt.Errorf("%w: %q is inside the bundle %q, whose next skill would carry this one", ErrOutInBundle, out, s.Root)
	}
	// The skill folder itself: written as the bundle, SKILL.md and catalog.md would replace the
	// bundle's own files of those names; holding the bundle, it would list the bundle's files as
	// left-overs to remove.
	dir := filepath.Join(out, s.Name)
	if inside(dir, s.Root) {
		return nil, fmt.Errorf("%w: the skill folder %q is the bundle %q; choose another --out or --name", ErrOutInBundle, filepath.ToSlash(dir), s.Root)
	}
	if s.Root != "" && inside(s.Root, dir) {
		return nil, fmt.Errorf("%w: the skill folder %q holds the bundle %q; choose another --out or --name", ErrOutInBundle, filepath.ToSlash(dir), s.Root)
	}
	if err := os.MkdirAll(out, 0o755); err != nil {
		return nil, fmt.Errorf("cannot make %q: %v", out, err)
	}
	limit := int64(okf.DefaultMaxFileSize)
	for _, f := range s.Files {
		if n := int64(len(f.Data)) + 1; n > limit {
			limit = n
		}
	}
	r, err := okf.OpenFileSystem(out, limit)
	if err != nil {
		return nil, fmt.Errorf("cannot open %q: %v", out, err)
	}
	defer r.Close()
	res := &Written{Dir: path.Join(out, s.Name)}
	var changes []okf.FileChange
	mine := map[string]bool{} // the files of this build, and their folders
	for _, f := range s.Files {
		p := s.Name + "/" + f.Path
		for d := path.Dir(p); d != "." && !mine[d]; d = path.Dir(d) {
			mine[d] = true
		}
		mine[p] = true
		old, err := okf.ReadForChange(r, p)
		if err != nil {
			var pe *fs.PathError
			msg := fmt.Sprintf("not written: %v", err)
			if errors.As(err, &pe) && pe.Op == "write" {
				msg = pe.Err.Error() // ReadForChange's reason, which says "not written"
			}
			res.Findings = append(res.Findings, Finding{Code: CodeRefused, Severity: "error", Path: f.Path, Message: msg})
			continue
		}
		if old != nil && bytes.Equal(old, f.Data) {
			res.Unchanged++
			continue
		}
		changes = append(changes, okf.FileChange{Path: p, Old: old, New: f.Data})
	}
	written, refused, err := okf.ApplyChanges(out, changes)
	if err != nil {
		return nil, fmt.Errorf("cannot write into %q: %v", out, err)
	}
	for _, p := range written {
		res.Written = append(res.Written, p[len(s.Name)+1:])
	}
	for _, c := range refused {
		res.Findings = append(res.Findings, Finding{Code: CodeRefused, Severity: "error", Path: c.Path[len(s.Name)+1:], Message: c.Why})
	}
	// What else the skill folder holds (not through links: WalkDir does not follow them). A link
	// where a folder of the skill goes was refused above already.
	_ = fs.WalkDir(r, s.Name, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || mine[p] {
			return nil
		}
		res.Findings = append(res.Findings, Finding{Code: CodeLeftOver, Severity: "warning", Path: p[len(s.Name)+1:], Message: "is not part of this build (left from an earlier one?): remove it, or the skill carries it"})
		return nil
	})
	sortFindings(res.Findings)
	return res, nil
}
