package okf

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"unicode/utf8"
)

// maxSymlinkHops bounds how many symbolic links WriteFileAtomic follows to find the file it
// replaces (Linux's own limit is 40), so a link loop is an error, not a hang.
const maxSymlinkHops = 40

// WriteFileAtomic writes data to the file name, for every file okf writes (reports, baselines,
// receipts, rewritten bundle files). The user picks name, but a pull request may have decided what
// is at that path, so first CheckWritePath refuses a symbolic link anywhere on it (a folder of the
// path included) that leads outside the path's checkout, or outside the file's folder when the path
// is in no checkout (an ErrOutside; nothing is written or created). What name then is decides how:
//
//   - a regular file, or no file yet: data goes to a temporary file in the target's own folder, which
//     is renamed over the target, so a reader never sees half a file and a failed write leaves the
//     old content intact. An existing file keeps its permission bits; a new one gets perm minus the
//     umask, as os.WriteFile does. The temporary file is removed on every failure path.
//   - a symbolic link that stays inside: it is followed (up to 40 links) and its target is replaced
//     as above; the link stays a link. A link to nowhere creates the file it names. The file written
//     is the one the check resolved, through no link.
//   - a descriptor's name (/dev/stdout, /dev/stderr, /dev/fd/N, /proc/self/fd/N, /proc/PID/fd/N):
//     written as the open stream it names, even when that stream is a regular file (appended to).
//   - anything else that exists (/dev/null, a FIFO, a terminal, a socket): it is opened for writing
//     and written directly; no device node is ever renamed over or removed. Writing to a FIFO waits
//     for a reader, as any writer would.
//
// No folder is created. Errors are *fs.PathError naming name, never the temporary file.
func WriteFileAtomic(name string, data []byte, perm fs.FileMode) error {
	return writeFileBounded("", name, data, perm)
}

// WriteFileWithin is WriteFileAtomic for a file okf names itself inside a folder that may come
// from a stranger (the default baseline, <root>/.okf-baseline.json): the file its path leads to
// must also be inside the folder bound, links followed, or it is refused (an ErrOutside naming
// name), even when it stays in the checkout. An empty bound is WriteFileAtomic.
func WriteFileWithin(bound, name string, data []byte, perm fs.FileMode) error {
	return writeFileBounded(bound, name, data, perm)
}

func writeFileBounded(bound, name string, data []byte, perm fs.FileMode) error {
	fail := func(op string, err error) error {
		var pe *fs.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		var le *os.LinkError
		if errors.As(err, &le) {
			err = le.Err
		}
		return &fs.PathError{Op: op, Path: name, Err: err}
	}
	target, existing, direct, err := writeTarget(bound, name)
	if err != nil {
		return fail("write", err)
	}
	if direct {
		// Not a regular file: write to it as it is. O_APPEND so that an alias of an already open
		// stream (/dev/stdout redirected with >> to a file) adds to it rather than overwriting it.
		flags := os.O_WRONLY | os.O_APPEND
		if !streamAlias(name) {
			flags |= openNoFollow // the resolved path holds no link; a link now is a race
		}
		f, err := os.OpenFile(target, flags, 0)
		if err != nil {
			return fail("open", err)
		}
		if _, err := f.Write(data); err != nil {
			f.Close()
			return fail("write", err)
		}
		if err := f.Close(); err != nil {
			return fail("write", err)
		}
		return nil
	}
	f, tmp, err := createTemp(target, perm)
	if err != nil {
		return fail("open", err)
	}
	ok := false
	defer func() {
		if !ok {
			f.Close()
			os.Remove(tmp)
		}
	}()
	if _, err := f.Write(data); err != nil {
		return fail("write", err)
	}
	if existing != nil {
		// Chmod on the open file is not subject to the umask: the mode is kept exactly.
		if err := f.Chmod(existing.Mode().Perm()); err != nil {
			return fail("chmod", err)
		}
	}
	if err := f.Sync(); err != nil {
		return fail("write", err)
	}
	if err := f.Close(); err != nil {
		return fail("write", err)
	}
	if err := rename(tmp, target); err != nil {
		return fail("rename", err)
	}
	ok = true
	return nil
}

// writeTarget finds what WriteFileAtomic writes for name: the regular file CheckWritePath resolves
// it to (with its FileInfo, nil when it does not exist yet), or direct when name names a stream or
// resolves to something that is not a regular file.
func writeTarget(bound, name string) (target string, existing fs.FileInfo, direct bool, err error) {
	if bound == "" && streamAlias(name) {
		// A file descriptor's name (/dev/stdout -> /proc/self/fd/1) is an open stream the user's
		// shell made, even when that stream is a regular file (okf ... -o /dev/stdout >> log):
		// write to it. No path in a checkout is one, and a link to one is checked like any other.
		return name, nil, true, nil
	}
	if bound != "" {
		b, err := walkPath(bound)
		if err != nil {
			return "", nil, false, err
		}
		w, err := walkPath(name)
		if err != nil {
			return "", nil, false, err
		}
		if !within(b.real, w.real) {
			return "", nil, false, &linkedOutError{fmt.Sprintf("a symbolic link on the path leads outside %q: not written", filepath.ToSlash(bound))}
		}
	}
	real, err := CheckWritePath(name)
	if err != nil {
		return "", nil, false, err
	}
	fi, err := os.Lstat(real)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return real, nil, false, nil
	case err != nil:
		return "", nil, false, err
	case fi.Mode()&fs.ModeSymlink != 0:
		return "", nil, false, syscall.ELOOP // made a link since the check: not followed
	case fi.IsDir():
		return "", nil, false, syscall.EISDIR
	case fi.Mode().IsRegular():
		return real, fi, false, nil
	}
	return real, nil, true, nil
}

// streamAlias reports whether name, as named (not through links), is a file descriptor's name:
// /dev/stdin, /dev/stdout, /dev/stderr, /dev/fd/N, or /proc/{self,thread-self,PID}[/task/TID]/fd/N.
func streamAlias(name string) bool {
	abs, err := filepath.Abs(name)
	if err != nil {
		return false
	}
	p := strings.Split(strings.TrimPrefix(filepath.ToSlash(abs), "/"), "/")
	num := func(s string) bool {
		if s == "" {
			return false
		}
		for _, c := range s {
			if c < '0' || c > '9' {
				return false
			}
		}
		return true
	}
	switch {
	case len(p) == 2 && p[0] == "dev" && (p[1] == "stdin" || p[1] == "stdout" || p[1] == "stderr"):
		return true
	case len(p) == 3 && p[0] == "dev" && p[1] == "fd" && num(p[2]):
		return true
	case len(p) >= 4 && p[0] == "proc" && (p[1] == "self" || p[1] == "thread-self" || num(p[1])):
		rest := p[2:]
		if len(rest) == 4 && rest[0] == "task" && num(rest[1]) {
			rest = rest[2:]
		}
		return len(rest) == 2 && rest[0] == "fd" && num(rest[1])
	}
	return false
}

// createTemp creates a hidden file beside target, named after it, with mode perm (less the umask,
// as for any new file). The leading "." keeps OKF loaders from taking it for a concept (D5).
func createTemp(target string, perm fs.FileMode) (*os.File, string, error) {
	dir, base := filepath.Split(target)
	if dir == "" {
		dir = "."
	}
	// A name holds at most 255 bytes on the file systems okf runs on: the temporary name, 18 bytes
	// longer than the target's, is cut to fit (at a character boundary), or a file with a long
	// name could never be rewritten.
	const maxName, extra = 255, len(".") + len(".tmp-") + 12
	if len(base)+extra > maxName {
		cut := maxName - extra
		for cut > 0 && !utf8.RuneStart(base[cut]) {
			cut--
		}
		base = base[:cut]
	}
	for range 100 {
		var r [6]byte
		if _, err := rand.Read(r[:]); err != nil {
			return nil, "", err
		}
		tmp := filepath.Join(dir, "."+base+".tmp-"+hex.EncodeToString(r[:]))
		f, err := os.OpenFile(tmp, os.O_RDWR|os.O_CREATE|os.O_EXCL, perm)
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		return f, tmp, err
	}
	return nil, "", fs.ErrExist
}

// rename is os.Rename; a test replaces it to make the last step fail.
var rename = os.Rename

// ReplacesBundleFile reports whether writing a report to name would replace a file a bundle is
// made of, and says which: an existing regular file (links followed as WriteFileAtomic follows
// them) that is its folder's index.md, log.md, .okf.yaml or .okf.yml (compared as files, so that
// Index.md on a case-insensitive file system is index.md), or a .md file whose first line opens a
// frontmatter block (D2). okf writes reports, baselines and receipts with -o and the like; none of
// them starts with a frontmatter, so writing one again over okf's own earlier output is never
// refused, while a mistyped -o that names a concept is, before anything is written.
func ReplacesBundleFile(name string) (why string, replaces bool) {
	if name == "" || streamAlias(name) {
		return "", false
	}
	real, err := CheckWritePath(name)
	if err != nil {
		return "", false // WriteFileAtomic says why it cannot write there
	}
	if r, err := filepath.EvalSymlinks(real); err == nil {
		real = r
	}
	fi, err := os.Stat(real)
	if err != nil || !fi.Mode().IsRegular() {
		return "", false
	}
	for _, special := range []struct{ name, what string }{
		{"index.md", "it is a bundle's index.md"},
		{"log.md", "it is a bundle's log.md"},
		{ConfigName, "it is a bundle's configuration"},
		{".okf.yml", "it is a bundle's configuration"},
	} {
		if other, err := os.Stat(filepath.Join(filepath.Dir(real), special.name)); err == nil && os.SameFile(fi, other) {
			return special.what, true
		}
	}
	if !strings.EqualFold(filepath.Ext(real), ".md") {
		return "", false
	}
	// Opened without blocking and without following a link, and checked to be the file looked
	// at: a FIFO swapped in since the Stat must not hang the command.
	f, err := os.OpenFile(real, os.O_RDONLY|syscall.O_NONBLOCK|openNoFollow, 0)
	if err != nil {
		return "", false
	}
	defer f.Close()
	if now, err := f.Stat(); err != nil || !now.Mode().IsRegular() || !os.SameFile(fi, now) {
		return "", false
	}
	// The first line, however long its spaces around "---" (D2 reads them as a delimiter), within
	// a bound: a line that long is no delimiter a person wrote.
	head := make([]byte, 64<<10)
	n, _ := io.ReadFull(f, head)
	head = head[:n]
	if i := bytes.IndexByte(head, '\n'); i >= 0 {
		head = head[:i+1]
	}
	if SplitFrontmatter(head).Status == NoFrontmatter {
		return "", false
	}
	return "it is a concept (its first line opens a frontmatter)", true
}
