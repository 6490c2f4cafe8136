//go:build linux

package okf

import (
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
)

// folderOS is the folder's descriptor: a file is opened with openat(2) in it, by its bare name,
// O_NOFOLLOW (a symbolic link is left to the FileSystem, which confines it) and O_NONBLOCK (a named
// pipe does not block; it is found by fstat and left to the FileSystem, which reports it). The file
// is read with read(2), without an os.File: no poller registration, no finalizer.
type folderOS struct {
	folder *os.File
	fd     int
}

func (h *folderHandle) openIn(fsys *os.Root, folder string) error {
	f, err := fsys.Open(folder)
	if err != nil {
		return err
	}
	h.folder, h.fd = f, int(f.Fd())
	return nil
}

func (h *folderHandle) closeOS() { h.folder.Close() }

// read reads the regular file base of the folder; ok is false when it is something else, or could
// not be opened, for the caller to go the FileSystem's way.
func (h *folderHandle) read(base string, limit int64, buf []byte) (data []byte, ok bool, err error) {
	var fd int
	for {
		fd, err = syscall.Openat(h.fd, base, syscall.O_RDONLY|syscall.O_NONBLOCK|syscall.O_NOFOLLOW|syscall.O_CLOEXEC, 0)
		if err != syscall.EINTR {
			break
		}
	}
	if err != nil {
		return nil, false, nil
	}
	defer syscall.Close(fd)
	var st syscall.Stat_t
	if err := syscall.Fstat(fd, &st); err != nil || st.Mode&syscall.S_IFMT != syscall.S_IFREG {
		return nil, false, nil
	}
	data, err = readCappedAt(fdReader(fd), st.Size, limit, buf, true)
	return data, true, err
}

// fdReader reads a descriptor as an io.Reader: 0 bytes is the end of the file.
type fdReader int

func (f fdReader) Read(p []byte) (int, error) {
	for {
		n, err := syscall.Read(int(f), p)
		switch {
		case err == syscall.EINTR:
			continue
		case err != nil:
			return 0, err
		case n == 0 && len(p) > 0:
			return 0, io.EOF
		}
		return n, nil
	}
}

// readDirTyped lists the folder dir of fsys, sorted by name, as fsys.FS().ReadDir does but without
// its lstat of every entry (os does one per entry for a folder opened in an os.Root): the entry
// types come from getdents(2), and an entry of unknown type (a file system that gives none) is
// lstat-ed through the folder's descriptor, by its bare name, as os does for any folder. The folder
// is opened through fsys (confined); a duplicate of its descriptor is listed as a plain os.File.
// Each entry's Info is Lstat through fsys. ok is false on any error, for the caller to go the
// FileSystem's way and report it in its words.
func readDirTyped(fsys *os.Root, dir string) (es []fs.DirEntry, ok bool) {
	f, err := fsys.Open(filepath.FromSlash(dir))
	if err != nil {
		return nil, false
	}
	defer f.Close()
	raw, err := f.SyscallConn()
	if err != nil {
		return nil, false
	}
	fd := -1
	if err := raw.Control(func(sys uintptr) { fd, err = syscall.Dup(int(sys)) }); err != nil || fd < 0 {
		return nil, false
	}
	syscall.CloseOnExec(fd)
	plain := os.NewFile(uintptr(fd), dir)
	defer plain.Close()
	entries, err := plain.ReadDir(-1)
	if err != nil {
		return nil, false
	}
	es = make([]fs.DirEntry, len(entries))
	for i, e := range entries {
		es[i] = confinedDirEntry{e, fsys, path.Join(dir, e.Name())}
	}
	slices.SortFunc(es, func(a, b fs.DirEntry) int { return strings.Compare(a.Name(), b.Name()) })
	return es, true
}

// confinedDirEntry is a directory entry whose Info is read through the confined file system, never
// by a path from the working directory.
type confinedDirEntry struct {
	fs.DirEntry
	fsys *os.Root
	path string // slash path from the root
}

func (e confinedDirEntry) Info() (fs.FileInfo, error) {
	return e.fsys.Lstat(filepath.FromSlash(e.path))
}
