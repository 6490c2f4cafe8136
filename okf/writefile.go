package okf

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
)

// maxSymlinkHops bounds how many symbolic links WriteFileAtomic follows to find the file it
// replaces (Linux's own limit is 40), so a link loop is an error, not a hang.
const maxSymlinkHops = 40

// WriteFileAtomic writes data to the file name, for every file okf writes (reports, baselines,
// receipts, generated files). What name is decides how:
//
//   - a regular file, or no file yet: data goes to a temporary file in the target's own folder, which
//     is renamed over the target, so a reader never sees half a file and a failed write leaves the
//     old content intact. An existing file keeps its permission bits; a new one gets perm minus the
//     umask, as os.WriteFile does. The temporary file is removed on every failure path.
//   - a symbolic link: it is followed (up to 40 links) and its target is replaced as above; the link
//     stays a link. A link to nowhere creates the file it names.
//   - anything else that exists (/dev/stdout, /dev/null, a FIFO, a terminal, a socket): it is opened
//     for writing and written directly; no device node is ever renamed over or removed. Writing to a
//     FIFO waits for a reader, as any writer would.
//
// Errors are *fs.PathError naming name, never the temporary file.
func WriteFileAtomic(name string, data []byte, perm fs.FileMode) error {
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
	target, existing, direct, err := writeTarget(name)
	if err != nil {
		return fail("write", err)
	}
	if direct {
		// Not a regular file: write to it as it is. O_APPEND so that an alias of an already open
		// stream (/dev/stdout redirected with >> to a file) adds to it rather than overwriting it.
		f, err := os.OpenFile(name, os.O_WRONLY|os.O_APPEND, 0)
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

// writeTarget finds what WriteFileAtomic writes for name: the regular file at the end of its chain of
// symbolic links (with its FileInfo, nil when it does not exist yet), or direct when name is, or
// leads to, something that is not a regular file.
func writeTarget(name string) (target string, existing fs.FileInfo, direct bool, err error) {
	// What the kernel reaches through every link, magic links such as /dev/stdout -> /proc/self/fd/1
	// included: if that is not a regular file, write to it directly.
	st, statErr := os.Stat(name)
	if statErr == nil && !st.Mode().IsRegular() {
		if st.IsDir() {
			return "", nil, false, syscall.EISDIR
		}
		return "", nil, true, nil
	}
	p := name
	for range maxSymlinkHops {
		if strings.HasPrefix(filepath.ToSlash(p), "/proc/") {
			// A file descriptor's alias (/dev/stdout -> /proc/self/fd/1) names an open stream,
			// even when that stream is a regular file (okf ... -o /dev/stdout >> log): write to it.
			return "", nil, true, nil
		}
		fi, err := os.Lstat(p)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			if statErr == nil {
				// The kernel found a file where following the links by hand finds none: a
				// link through /proc (a file descriptor's alias). Write to what it opens.
				return "", nil, true, nil
			}
			return p, nil, false, nil
		case err != nil:
			return "", nil, false, err
		case fi.Mode()&fs.ModeSymlink != 0:
			link, err := os.Readlink(p)
			if err != nil {
				return "", nil, false, err
			}
			if !filepath.IsAbs(link) {
				link = filepath.Join(filepath.Dir(p), link)
			}
			p = link
		case fi.Mode().IsRegular():
			if statErr == nil && !os.SameFile(fi, st) {
				return "", nil, true, nil // an alias the links by hand do not reach
			}
			return p, fi, false, nil
		default:
			return "", nil, true, nil
		}
	}
	return "", nil, false, syscall.ELOOP
}

// createTemp creates a hidden file beside target, named after it, with mode perm (less the umask,
// as for any new file). The leading "." keeps OKF loaders from taking it for a concept (D5).
func createTemp(target string, perm fs.FileMode) (*os.File, string, error) {
	dir, base := filepath.Split(target)
	if dir == "" {
		dir = "."
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
