package okf

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
)

// CheckLinkedOut refuses a folder named inside a git checkout that is, or passes through, a
// symbolic link leading out of that checkout. CI names a bundle folder (docs) in a checkout that a
// pull request wrote, and the pull request can make that folder a link to anywhere on the runner
// (another repository checked out there, a home folder): okf would then read, print and rewrite
// files outside the checkout as if they were the bundle. The checkout is found as walkPath finds
// it (the nearest folder holding .git on the way, reached through no link inside a checkout). A
// folder with no link on its path, a link that stays in its checkout, and a folder in no checkout
// are accepted (the user's choice). dir need not exist: okf gen --out names a folder it is about to
// create, and a missing folder under a link leading out is refused before anything creates it.
func CheckLinkedOut(dir string) error {
	w, err := walkPath(dir)
	if err != nil {
		// Fail closed: a path okf cannot resolve as the kernel would (one past PATH_MAX once its
		// links are resolved, a loop) may pass through a link leading out, and is not read.
		return &linkedOutError{fmt.Sprintf("%s cannot be resolved (%v): not read", dir, unwrapPath(err))}
	}
	if w.checkout == "" || w.link == "" {
		return nil // no link in a checkout
	}
	if !within(w.checkout, w.real) {
		return &linkedOutError{fmt.Sprintf("%s leads outside its checkout (%s) through a symbolic link: not read (name the folder it leads to, if you mean it)", dir, w.checkout)}
	}
	if inGitDir(w.checkout, w.real) {
		return &linkedOutError{fmt.Sprintf("%s leads into the .git folder of its checkout (%s) through a symbolic link: not used (name the folder it leads to, if you mean it)", dir, w.checkout)}
	}
	return nil
}

// unwrapPath drops the *fs.PathError around a system error, whose path is a resolved one the user
// never wrote.
func unwrapPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// CheckWritePath refuses a file name okf is asked to write (a report, a baseline, a receipt) when a
// symbolic link on its path leads outside its checkout, or, when the path is in no checkout,
// outside the named file's folder. The user picks the name, but a pull request decides what is at
// that path: report.sarif committed as a link to ~/.bashrc, or a folder out committed as a link to
// /etc, for -o out/report.sarif. A link into the checkout's own .git folder (its config, which
// every later git command reads, or its hooks) is refused too. It returns the path with every link
// resolved, which is what WriteFileAtomic then writes, so the check and the write agree on the
// file. The refusal is a *fs.PathError naming name whose error is an ErrOutside.
func CheckWritePath(name string) (real string, err error) {
	w, err := walkPath(name)
	if err != nil {
		return "", &fs.PathError{Op: "write", Path: name, Err: err}
	}
	bound, where, link := w.checkout, "outside the checkout", w.link
	if bound == "" {
		// In no checkout, the folder named (links and all) is the user's choice; the file's own
		// name is what a stranger may have made a link.
		bound, where, link = w.dir, "outside the folder", w.lastLink
	}
	inside := within(bound, w.real)
	if inside && w.checkout != "" && w.link != "" {
		// Inside the checkout is not the same as written by the pull request: a link there may
		// lead into a repository CI checked out inside it (a tool it runs later), into files a
		// build step made (.venv/bin), or into .git (its config, its hooks). A report path is
		// written as a file, never through a link in a checkout.
		shown := w.link
		if rel, err := filepath.Rel(w.checkout, w.link); err == nil {
			shown = rel
		}
		into := ""
		if inGitDir(w.checkout, w.real) {
			into = " into its .git folder"
		}
		return "", &fs.PathError{Op: "write", Path: name, Err: &linkedOutError{fmt.Sprintf(
			"the symbolic link %q in the checkout %s leads%s to %s: not written (okf never writes a report through a link in a checkout; name the file it leads to, if you mean it)",
			filepath.ToSlash(shown), w.checkout, into, filepath.ToSlash(w.real))}}
	}
	if inside {
		return w.real, nil
	}
	shown := link
	if shown == "" {
		shown = name
	} else if rel, err := filepath.Rel(bound, link); err == nil && !strings.HasPrefix(rel, "..") {
		shown = rel
	}
	return "", &fs.PathError{Op: "write", Path: name, Err: &linkedOutError{fmt.Sprintf(
		"the symbolic link %q leads %s %s: not written (name the file it leads to, if you mean it)",
		filepath.ToSlash(shown), where, bound)}}
}

// CheckReadPath refuses a file the user named on the command line (--config, --baseline,
// --receipt, --db) when a symbolic link on its path lies in a checkout: the user picks the name, but
// a pull request decides what is at it (okf-ci.yaml committed as a link to another checkout's
// secrets, or to .git/config), as for the files okf writes (CheckWritePath). A path in no
// checkout, or with no link in one (/dev/stdin, /tmp/x), is read as named. The refusal is a
// *fs.PathError naming name whose error is an ErrOutside.
func CheckReadPath(name string) error {
	w, err := walkPath(name)
	if err != nil {
		return &fs.PathError{Op: "read", Path: name, Err: fmt.Errorf("cannot be resolved (%v): not read", unwrapPath(err))}
	}
	if w.checkout == "" || w.link == "" {
		return nil
	}
	shown := w.link
	if rel, err := filepath.Rel(w.checkout, w.link); err == nil {
		shown = rel
	}
	return &fs.PathError{Op: "read", Path: name, Err: &linkedOutError{fmt.Sprintf(
		"the symbolic link %q in the checkout %s leads to %s: not read (okf never reads a file named on its command line through a link in a checkout; name the file it leads to, if you mean it)",
		filepath.ToSlash(shown), w.checkout, filepath.ToSlash(w.real))}}
}

// pathWalk is what walkPath finds.
type pathWalk struct {
	// real is the path with every symbolic link on it resolved and no "." or ".."; the part past
	// the first component that does not exist is appended as named.
	real string
	// checkout is the real path of the checkout the path is in ("" when none).
	checkout string
	// link is the first symbolic link met inside the checkout ("" when none); lastLink the first
	// one met at the named path's last component, after dir.
	link, lastLink string
	// dir is the real path of the named path's folder.
	dir string
}

// walkPath resolves name component by component as the kernel does (a ".." after a link climbs
// from the link's target; at most maxSymlinkHops links, else ELOOP), and finds the checkout on
// the way: the nearest folder holding .git, looked for only until the walk follows a symbolic link
// inside a checkout or at the named path's last component. Below such a link the path is the link's target, which a pull request chose:
// a .git there (another repository on the runner) is not the checkout. A link met before any
// checkout (a runner's /home pointing elsewhere) is the system's, and the walk goes on looking.
// A relative name is read from the working directory, whose own path is walked the same way.
func walkPath(name string) (w pathWalk, err error) {
	if !filepath.IsAbs(name) {
		wd, err := os.Getwd()
		if err != nil {
			return w, err
		}
		name = wd + string(filepath.Separator) + name
	}
	type part struct {
		name string
		last bool // the named path's last component
	}
	var todo []part
	split := func(p string) []part {
		var ps []part
		for _, c := range strings.Split(filepath.ToSlash(p[len(filepath.VolumeName(p)):]), "/") {
			if c != "" && c != "." {
				ps = append(ps, part{name: c})
			}
		}
		return ps
	}
	todo = split(name)
	if len(todo) > 0 {
		todo[len(todo)-1].last = true
	}
	root := filepath.VolumeName(name) + string(filepath.Separator)
	cur := root
	trusting := true // .git is still looked for (no link inside a checkout followed yet)
	if hasGit(cur) {
		w.checkout = cur
	}
	missing, hops, pastDir := false, 0, len(todo) == 0
	if pastDir {
		w.dir = cur
	}
	for len(todo) > 0 {
		p := todo[0]
		todo = todo[1:]
		if p.last {
			w.dir, pastDir = cur, true
		}
		if p.name == ".." {
			cur = filepath.Dir(cur)
			if trusting && !missing {
				w.checkout = nearestGit(cur)
			}
			continue
		}
		next := filepath.Join(cur, p.name)
		if missing {
			cur = next
			continue
		}
		fi, err := os.Lstat(next)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			missing, cur = true, next
		case err != nil:
			return w, err
		case fi.Mode()&fs.ModeSymlink != 0:
			if hops++; hops > maxSymlinkHops {
				return w, syscall.ELOOP
			}
			if trusting && (w.checkout != "" || pastDir) {
				// Past this link the path is the link's target: a .git there is not the
				// checkout of the named path (a link at its last component included).
				trusting = false
				if w.checkout != "" {
					w.link = next
				}
			}
			if pastDir && w.lastLink == "" {
				w.lastLink = next
			}
			target, err := os.Readlink(next)
			if err != nil {
				return w, err
			}
			if filepath.IsAbs(target) {
				cur = filepath.VolumeName(target) + string(filepath.Separator)
				if trusting && hasGit(cur) {
					w.checkout = cur
				}
			}
			todo = append(split(target), todo...)
		case fi.IsDir():
			cur = next
			if trusting && hasGit(cur) {
				w.checkout = cur
			}
		default:
			if len(todo) > 0 {
				return w, syscall.ENOTDIR
			}
			cur = next
		}
	}
	w.real = cur
	return w, nil
}

// inGitDir reports whether p, below checkout, passes through a folder named .git (in any case).
func inGitDir(checkout, p string) bool {
	rel, err := filepath.Rel(checkout, p)
	if err != nil {
		return false
	}
	for _, c := range strings.Split(filepath.ToSlash(rel), "/") {
		if strings.EqualFold(c, ".git") {
			return true
		}
	}
	return false
}

// nearestGit is the nearest of dir and its parents holding .git, or "".
func nearestGit(dir string) string {
	for {
		if hasGit(dir) {
			return dir
		}
		up := filepath.Dir(dir)
		if up == dir {
			return ""
		}
		dir = up
	}
}

// within reports whether p is root or below it (both clean, absolute and resolved).
func within(root, p string) bool {
	rel, err := filepath.Rel(root, p)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel)
}

func hasGit(dir string) bool {
	_, err := os.Lstat(filepath.Join(dir, ".git"))
	return err == nil
}

// linkedOutError is CheckLinkedOut's and CheckWritePath's refusal; it is an ErrOutside (errors.Is).
type linkedOutError struct{ msg string }

func (e *linkedOutError) Error() string        { return e.msg }
func (e *linkedOutError) Is(target error) bool { return target == ErrOutside }
