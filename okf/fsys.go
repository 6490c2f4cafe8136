package okf

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/okf-tools/okf/internal/bytesize"
)

// DefaultMaxFileSize is the largest file okf reads from a bundle or checkout unless told otherwise
// (--max-file-size, the max_file_size configuration key): 8 MiB. It fits any real concept with a
// wide margin (the largest file of the corpora is well under 1 MiB) and bounds what one hostile
// file can cost: a larger file is refused before any of it is read, and no read allocates more than
// the limit plus one byte whatever size the file claims.
const DefaultMaxFileSize int64 = 8 << 20

// Errors of the confined reads. They come wrapped in an *fs.PathError naming the file, so
// errors.Is(err, ErrTooLarge) holds and err.Error() reads "read x.md: file is larger than …".
var (
	// ErrTooLarge: the file is larger than the size limit; none of it (or only the limit plus one
	// byte, when its size was not known in advance) was read.
	ErrTooLarge = errors.New("file is larger than the size limit")
	// ErrNotRegular: a named pipe, socket, device or folder where a regular file was expected; it
	// was not read (and opening it did not block).
	ErrNotRegular = errors.New("not a regular file")
	// ErrOutside: the path, or a symbolic link on the way, leads outside the root.
	ErrOutside = errors.New("path leads outside the root")
)

// TooLargeError is the detail behind ErrTooLarge: the file's size when known and the limit.
type TooLargeError struct {
	Size  int64 // -1 when the file's size was not known before reading (a stream)
	Limit int64
}

// Error says the limit, and the file's size when it was known, as the limits are written.
func (e *TooLargeError) Error() string {
	if e.Size < 0 {
		return fmt.Sprintf("file is larger than the %s size limit", bytesize.Format(e.Limit))
	}
	return fmt.Sprintf("file is larger than the %s size limit (%s)", bytesize.Format(e.Limit), bytesize.Format(e.Size))
}

// Is makes errors.Is(err, ErrTooLarge) hold.
func (e *TooLargeError) Is(target error) bool { return target == ErrTooLarge }

// FileSystem is the one door through which okf reads a bundle's or checkout's files. Built on
// os.Root (OpenFileSystem), no path, ".." or symbolic link can lead outside the folder it was
// opened on; only regular files are read, opened without blocking (a named pipe, socket or device
// is reported, never waited on); and no file larger than the size limit is read. Built on an fs.FS
// (NewFileSystem), the same checks apply as far as the file system allows.
//
// FileSystem implements fs.FS, fs.ReadFileFS, fs.StatFS and fs.ReadDirFS over slash paths from the
// root, so fs.ReadFile(r, p) is capped too. It is safe for concurrent use.
type FileSystem struct {
	osFS *os.Root // the os.Root it is built on; nil when built on an fs.FS
	fsys fs.FS    // osFS.FS() or the given file system
	dir  string   // the folder OpenFileSystem was given ("" for an fs.FS)
	max  int64
}

// OpenFileSystem opens the folder dir as a FileSystem whose reads are limited to maxSize bytes per
// file (DefaultMaxFileSize when maxSize <= 0). The folder's open handle is released by Close, or
// when the FileSystem is garbage collected.
func OpenFileSystem(dir string, maxSize int64) (*FileSystem, error) {
	r, err := os.OpenRoot(dir)
	if err != nil {
		return nil, err
	}
	return &FileSystem{osFS: r, fsys: r.FS(), dir: dir, max: limitOrDefault(maxSize)}, nil
}

// NewFileSystem wraps a file system (tests, embedded bundles, archives) with the same checks:
// regular files only, at most maxSize bytes (DefaultMaxFileSize when maxSize <= 0), no ".." paths.
func NewFileSystem(fsys fs.FS, maxSize int64) *FileSystem {
	if r, ok := fsys.(*FileSystem); ok {
		if maxSize <= 0 || maxSize == r.max {
			return r
		}
		c := *r
		c.max = maxSize
		return &c
	}
	return &FileSystem{fsys: fsys, max: limitOrDefault(maxSize)}
}

func limitOrDefault(n int64) int64 {
	if n <= 0 {
		return DefaultMaxFileSize
	}
	return n
}

// Dir returns the folder the FileSystem was opened on ("" when built on an fs.FS).
func (r *FileSystem) Dir() string { return r.dir }

// MaxFileSize returns the per-file size limit in bytes.
func (r *FileSystem) MaxFileSize() int64 { return r.max }

// Close releases the folder's handle; reads fail afterwards.
func (r *FileSystem) Close() error {
	if r.osFS != nil {
		return r.osFS.Close()
	}
	return nil
}

// clean checks a slash path from the root: "." or a path whose elements stay inside (a ".." that
// climbs above the root is ErrOutside; an absolute path too).
func (r *FileSystem) clean(op, name string) (string, error) {
	if name == "" || name == "." {
		return ".", nil
	}
	if strings.Contains(name, "\\") {
		return "", &fs.PathError{Op: op, Path: name, Err: backslashError{}}
	}
	if strings.HasPrefix(name, "/") || strings.IndexByte(name, 0) >= 0 {
		return "", &fs.PathError{Op: op, Path: name, Err: ErrOutside}
	}
	c := path.Clean(name)
	if c == ".." || strings.HasPrefix(c, "../") {
		return "", &fs.PathError{Op: op, Path: name, Err: ErrOutside}
	}
	if !fs.ValidPath(c) {
		return "", &fs.PathError{Op: op, Path: name, Err: fs.ErrInvalid}
	}
	return c, nil
}

// fixErr names the file with the caller's path and maps os.Root's escape error to ErrOutside.
func fixErr(op, name string, err error) error {
	if err == nil {
		return nil
	}
	inner := err
	var pe *fs.PathError
	if errors.As(err, &pe) {
		inner = pe.Err
	}
	// os.Root reports a path or link leading out of the root with an unexported error whose text
	// is fixed ("path escapes from parent"); ELOOP from a link chain is treated the same way only
	// when os.Root says so.
	if inner != nil && strings.Contains(inner.Error(), "escapes from parent") {
		inner = ErrOutside
	}
	return &fs.PathError{Op: op, Path: name, Err: inner}
}

// Open opens a regular file or a folder for reading (fs.FS). A named pipe, socket or device is
// ErrNotRegular; it is opened without blocking, then closed, never read.
func (r *FileSystem) Open(name string) (fs.File, error) {
	f, _, err := r.open("open", name, true)
	return f, err
}

// open opens name without blocking and checks its type on the open handle (no race with a file
// swapped between a check and the open).
func (r *FileSystem) open(op, name string, dirOK bool) (fs.File, fs.FileInfo, error) {
	c, err := r.clean(op, name)
	if err != nil {
		return nil, nil, err
	}
	var f fs.File
	if r.osFS != nil {
		if err := r.intoGit(c); err != nil {
			return nil, nil, &fs.PathError{Op: op, Path: name, Err: err}
		}
		of, err := r.osFS.OpenFile(filepath.FromSlash(c), os.O_RDONLY|openNonblock, 0)
		if err != nil {
			return nil, nil, fixErr(op, name, err)
		}
		f = of
	} else {
		// A generic file system cannot open without blocking: look first (Stat follows links the
		// way Open does), then check again on the open file.
		st, err := fs.Stat(r.fsys, c)
		if err != nil {
			return nil, nil, fixErr(op, name, err)
		}
		if !typeOK(st.Mode(), dirOK) {
			return nil, nil, &fs.PathError{Op: op, Path: name, Err: notRegular(st.Mode())}
		}
		if !dirOK && st.Size() > r.max {
			// Refused before opening: a file system may hold a size it never fetched.
			return nil, nil, &fs.PathError{Op: op, Path: name, Err: &TooLargeError{Size: st.Size(), Limit: r.max}}
		}
		if f, err = r.fsys.Open(c); err != nil {
			return nil, nil, fixErr(op, name, err)
		}
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, nil, fixErr(op, name, err)
	}
	if !typeOK(st.Mode(), dirOK) {
		f.Close()
		return nil, nil, &fs.PathError{Op: op, Path: name, Err: notRegular(st.Mode())}
	}
	return f, st, nil
}

// ErrIntoGit is returned (wrapped, with ErrOutside) for a path that names a .git folder or leads
// into one through a symbolic link: a repository's files (its config holds CI's credentials, its
// hooks run) are never bundle content, and a committed link (index.md -> .git/config) must not
// make okf read, print or serve them.
var ErrIntoGit = errors.New("leads into a .git folder")

// ErrBackslash is returned (wrapped, with ErrOutside) for a path with a backslash in it: Windows
// reads a backslash as a folder separator (a\..\..\x climbs out there), so okf reads no such file
// on any system, and a bundle reads the same everywhere. A Linux checkout may still hold one.
var ErrBackslash = errors.New("the name holds a backslash")

type backslashError struct{}

func (backslashError) Error() string {
	return "the name holds a backslash, which Windows reads as a folder separator: not read"
}
func (backslashError) Is(target error) bool { return target == ErrBackslash || target == ErrOutside }

type intoGitError struct{}

func (intoGitError) Error() string        { return "the path leads into a .git folder: not read" }
func (intoGitError) Is(target error) bool { return target == ErrIntoGit || target == ErrOutside }

// intoGit refuses c (a clean slash path) when it names a .git folder, or when a symbolic link on it
// leads into one inside the root. Only a path that holds a link is resolved (one lstat per folder
// on the way, on this path alone: the loader's own reads of plain files never come here).
func (r *FileSystem) intoGit(c string) error {
	if c == "." {
		return nil
	}
	parts := strings.Split(c, "/")
	for _, p := range parts {
		if strings.EqualFold(p, ".git") {
			return intoGitError{}
		}
	}
	if r.dir == "" {
		return nil
	}
	for i := range parts {
		st, err := r.osFS.Lstat(filepath.FromSlash(path.Join(parts[:i+1]...)))
		if err != nil {
			return nil // opening it says why
		}
		if st.Mode()&fs.ModeSymlink == 0 {
			continue
		}
		base, err1 := filepath.EvalSymlinks(r.dir)
		real, err2 := filepath.EvalSymlinks(filepath.Join(r.dir, filepath.FromSlash(c)))
		if err1 != nil || err2 != nil {
			// Fail closed: a link okf cannot resolve as the kernel would (a resolved path past
			// PATH_MAX, which os.Root, walking one component at a time, still opens) may lead
			// into .git.
			if errors.Is(err2, fs.ErrNotExist) {
				return nil // a link to nowhere: opening it says so
			}
			return intoGitError{}
		}
		if rel, err := filepath.Rel(base, real); err == nil && !strings.HasPrefix(rel, "..") {
			for _, p := range strings.Split(rel, string(filepath.Separator)) {
				if strings.EqualFold(p, ".git") {
					return intoGitError{}
				}
			}
		}
		return nil
	}
	return nil
}

func typeOK(m fs.FileMode, dirOK bool) bool {
	return m.IsRegular() || (dirOK && m.IsDir())
}

// notRegular says what kind of file was refused.
func notRegular(m fs.FileMode) error {
	kind := "a special file"
	switch {
	case m.IsDir():
		kind = "a folder"
	case m&fs.ModeNamedPipe != 0:
		kind = "a named pipe"
	case m&fs.ModeSocket != 0:
		kind = "a socket"
	case m&fs.ModeCharDevice != 0:
		kind = "a character device"
	case m&fs.ModeDevice != 0:
		kind = "a device"
	case m&fs.ModeSymlink != 0:
		kind = "a symbolic link"
	}
	return fmt.Errorf("%w (%s): not read", ErrNotRegular, kind)
}

// ReadFile reads the regular file at the slash path name, at most the size limit (fs.ReadFileFS).
func (r *FileSystem) ReadFile(name string) ([]byte, error) {
	return r.ReadFileInto(name, nil)
}

// ReadFileInto reads like ReadFile into buf's storage when it is large enough, so that a caller
// reading many files reuses one buffer. The buffer never grows past the limit plus one byte: a file
// whose size is over the limit is refused before reading, and one that grows while read stops there.
func (r *FileSystem) ReadFileInto(name string, buf []byte) ([]byte, error) {
	f, st, err := r.open("read", name, false)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := readCapped(f, st.Size(), r.max, buf)
	if err != nil {
		return nil, &fs.PathError{Op: "read", Path: name, Err: unwrapPathError(err)}
	}
	return data, nil
}

// Stat returns the file information of name, following symbolic links inside the root

// folderHandle is a loader worker's handle on the folder it read its last file from, so that the
// next file of the same folder is opened with one openat in it instead of os.Root walking (and
// opening and closing) every folder of the path again. The handle is opened through the bundle's
// Root (os.Root: confined), and a file is opened in it by its bare name, never following a
// symbolic link (fsys_linux.go) or through an os.Root on the folder (elsewhere): it cannot lead
// out of the folder, which is inside the root.
type folderHandle struct {
	dir  string // slash path of the folder, "" for the root
	open bool
	folderOS
}

// readFileVia reads name as ReadFileInto does, opening it through h (moved to the file's folder
// first). Whatever this path does not read plainly (a link, a file that is not regular, an error
// opening) is handed to ReadFileInto, so errors and their messages are exactly its own.
func (r *FileSystem) readFileVia(h *folderHandle, name string, buf []byte) ([]byte, error) {
	if r.osFS == nil {
		return r.ReadFileInto(name, buf)
	}
	c, err := r.clean("read", name)
	if err != nil {
		return nil, err
	}
	dir, base := path.Split(c)
	dir = strings.TrimSuffix(dir, "/")
	if !h.open || h.dir != dir {
		h.close()
		folder := dir
		if folder == "" {
			folder = "."
		}
		if err := h.openIn(r.osFS, filepath.FromSlash(folder)); err != nil {
			return r.ReadFileInto(name, buf)
		}
		h.dir, h.open = dir, true
	}
	data, ok, err := h.read(base, r.max, buf)
	if !ok {
		return r.ReadFileInto(name, buf)
	}
	if err != nil {
		return nil, &fs.PathError{Op: "read", Path: name, Err: unwrapPathError(err)}
	}
	return data, nil
}

func (h *folderHandle) close() {
	if h.open {
		h.closeOS()
	}
	*h = folderHandle{}
}

// (fs.StatFS). A link leading outside is ErrOutside.
func (r *FileSystem) Stat(name string) (fs.FileInfo, error) {
	c, err := r.clean("stat", name)
	if err != nil {
		return nil, err
	}
	if r.osFS != nil {
		st, err := r.osFS.Stat(filepath.FromSlash(c))
		return st, fixErr("stat", name, err)
	}
	st, err := fs.Stat(r.fsys, c)
	return st, fixErr("stat", name, err)
}

// Lstat returns the file information of name without following a final symbolic link.
func (r *FileSystem) Lstat(name string) (fs.FileInfo, error) {
	c, err := r.clean("lstat", name)
	if err != nil {
		return nil, err
	}
	if r.osFS != nil {
		st, err := r.osFS.Lstat(filepath.FromSlash(c))
		return st, fixErr("lstat", name, err)
	}
	if lfs, ok := r.fsys.(fs.ReadLinkFS); ok {
		st, err := lfs.Lstat(c)
		return st, fixErr("lstat", name, err)
	}
	st, err := fs.Stat(r.fsys, c)
	return st, fixErr("lstat", name, err)
}

// ReadDir lists the folder name, sorted by file name (fs.ReadDirFS).
func (r *FileSystem) ReadDir(name string) ([]fs.DirEntry, error) {
	c, err := r.clean("readdir", name)
	if err != nil {
		return nil, err
	}
	if r.osFS != nil {
		if es, ok := readDirTyped(r.osFS, c); ok {
			return es, nil
		}
	}
	es, err := fs.ReadDir(r.fsys, c)
	return es, fixErr("readdir", name, err)
}

// Rel returns the slash path from the root of the operating-system path p (relative to the working
// directory or absolute), and whether p lies inside the root's folder as written (no symbolic link
// is resolved: reading the returned path through the FileSystem then confines it). It is false for
// a FileSystem built on an fs.FS.
func (r *FileSystem) Rel(p string) (string, bool) {
	if r.osFS == nil {
		return "", false
	}
	absRoot, err1 := filepath.Abs(r.dir)
	absP, err2 := filepath.Abs(p)
	if err1 != nil || err2 != nil {
		return "", false
	}
	rel, err := filepath.Rel(absRoot, absP)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) || filepath.IsAbs(rel) {
		return "", false
	}
	return filepath.ToSlash(rel), true
}

// ReadPath reads a file named on the command line (an operating-system path): through the
// FileSystem, confined and regular-only, when the path lies inside the root's folder; otherwise as
// ReadFileLimit does (the user named a file outside the checkout).
func (r *FileSystem) ReadPath(p string) ([]byte, error) {
	if rel, ok := r.Rel(p); ok {
		data, err := r.ReadFile(rel)
		if err != nil {
			var pe *fs.PathError
			if errors.As(err, &pe) {
				pe.Path = p
			}
		}
		return data, err
	}
	return ReadFileLimit(p, r.max)
}

// ReadFileLimit reads a file the user named outside any bundle (a flag's value), at most maxSize
// bytes (DefaultMaxFileSize when maxSize <= 0), never through a symbolic link in a checkout
// (CheckReadPath). It opens without blocking; a folder is refused; a
// named pipe or character device (process substitution, /dev/stdin) is read as a stream, capped
// the same way.
func ReadFileLimit(name string, maxSize int64) ([]byte, error) {
	if err := CheckReadPath(name); err != nil {
		return nil, err // a link in a checkout: a stranger's choice (CheckReadPath)
	}
	f, err := os.OpenFile(name, os.O_RDONLY|openNonblock, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if st.IsDir() {
		return nil, &fs.PathError{Op: "read", Path: name, Err: notRegular(st.Mode())}
	}
	size := st.Size()
	if !st.Mode().IsRegular() {
		size = -1
	}
	data, err := readCapped(f, size, limitOrDefault(maxSize), nil)
	if err != nil {
		return nil, &fs.PathError{Op: "read", Path: name, Err: unwrapPathError(err)}
	}
	return data, nil
}

// ReadLimit reads a stream (standard input) to its end, at most maxSize bytes (DefaultMaxFileSize
// when maxSize <= 0); more is ErrTooLarge, wrapped in an *fs.PathError naming name.
func ReadLimit(rd io.Reader, name string, maxSize int64) ([]byte, error) {
	data, err := readCapped(rd, -1, limitOrDefault(maxSize), nil)
	if err != nil {
		return nil, &fs.PathError{Op: "read", Path: name, Err: unwrapPathError(err)}
	}
	return data, nil
}

// readCapped reads rd to its end into buf's storage. Bound: it never holds more than limit+1 bytes.
// size is what the file claims (-1: unknown); a claim over the limit is refused before reading, and
// the first allocation is at most the claim (or 64 KiB when unknown) and never past limit+1.
func readCapped(rd io.Reader, size, limit int64, buf []byte) ([]byte, error) {
	return readCappedAt(rd, size, limit, buf, false)
}

// readCappedAt is readCapped; shortIsEnd says rd is a regular file whose size fstat gave as size, so
// that a read stopping short exactly there is its end (read(2) on a regular file returns less than
// asked only at the end): the file is then read with one call instead of a second one returning 0
// bytes. Any other count (a file that grew or shrank since fstat) reads on to the end as before.
func readCappedAt(rd io.Reader, size, limit int64, buf []byte, shortIsEnd bool) ([]byte, error) {
	if size > limit {
		return nil, &TooLargeError{Size: size, Limit: limit}
	}
	want := size + 1 // one more byte, so a file read whole sees io.EOF without growing
	if size < 0 {
		want = 64 << 10
	}
	want = min(want, limit+1)
	if int64(cap(buf)) < want {
		buf = make([]byte, 0, want)
	}
	buf = buf[:0]
	for {
		if len(buf) == cap(buf) {
			if int64(len(buf)) > limit {
				return nil, &TooLargeError{Size: -1, Limit: limit}
			}
			n := min(max(2*int64(cap(buf)), 512), limit+1)
			nb := make([]byte, len(buf), n)
			copy(nb, buf)
			buf = nb
		}
		n, err := rd.Read(buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+n]
		if int64(len(buf)) > limit {
			return nil, &TooLargeError{Size: -1, Limit: limit}
		}
		if err == io.EOF {
			return buf, nil
		}
		if err != nil {
			return nil, err
		}
		if shortIsEnd && n > 0 && int64(len(buf)) == size && len(buf) < cap(buf) {
			return buf, nil
		}
	}
}
