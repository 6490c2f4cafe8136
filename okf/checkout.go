package okf

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// CheckLinkedOut refuses a folder named inside a git checkout that is, or passes through, a
// symbolic link leading out of that checkout. CI names a bundle folder (docs) in a checkout that a
// pull request wrote, and the pull request can make that folder a link to anywhere on the runner
// (another repository checked out there, a home folder): okf would then read, print and rewrite
// files outside the checkout as if they were the bundle. The checkout is the nearest folder above
// the first link on dir's path that holds .git; a folder with no link on its path, a link that
// stays in its checkout, and a folder in no checkout are accepted (the user's choice).
func CheckLinkedOut(dir string) error {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil
	}
	linked := false
	for a := abs; ; a = filepath.Dir(a) {
		st, err := os.Lstat(a)
		switch {
		case err != nil:
		case st.Mode()&fs.ModeSymlink != 0:
			// .git is looked for only above the link: below it, the path is the link's target.
			linked = true
		case hasGit(a):
			if !linked {
				return nil
			}
			realTop, err1 := filepath.EvalSymlinks(a)
			realDir, err2 := filepath.EvalSymlinks(abs)
			if err1 != nil || err2 != nil {
				return nil // not resolvable: opening it fails on its own
			}
			rel, err := filepath.Rel(realTop, realDir)
			if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) || filepath.IsAbs(rel) {
				return &linkedOutError{fmt.Sprintf("%s leads outside its checkout (%s) through a symbolic link: not read (name the folder it leads to, if you mean it)", dir, a)}
			}
			return nil
		}
		if filepath.Dir(a) == a {
			return nil
		}
	}
}

func hasGit(dir string) bool {
	_, err := os.Lstat(filepath.Join(dir, ".git"))
	return err == nil
}

// linkedOutError is CheckLinkedOut's refusal; it is an ErrOutside (errors.Is).
type linkedOutError struct{ msg string }

func (e *linkedOutError) Error() string        { return e.msg }
func (e *linkedOutError) Is(target error) bool { return target == ErrOutside }
