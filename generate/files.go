package generate

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
)

// MaxPostSize is the largest post (or authors file) gen reads, in bytes: far above any real post;
// a larger file is reported and left out, so memory stays bounded by it.
const MaxPostSize = 8 << 20

// confinedDir is a posts folder opened as an os.Root: no path, ".." or symbolic link read through
// it leads outside the folder, only regular files are read (a FIFO or device is refused without
// blocking), and no file larger than MaxPostSize is read.
//
// It is gen's one door for reading posts; it moves to okf's confined reader once that exists.
type confinedDir struct {
	fs.FS
	root *os.Root
}

// openConfined opens dir as a confinedDir. Close it when done.
func openConfined(dir string) (*confinedDir, error) {
	r, err := os.OpenRoot(dir)
	if err != nil {
		return nil, err
	}
	return &confinedDir{FS: r.FS(), root: r}, nil
}

func (c *confinedDir) Close() error { return c.root.Close() }

var errNotRegular = errors.New("not a regular file (a symbolic link, pipe or device); left out")

// ReadPost reads a regular file below the folder, of at most MaxPostSize bytes.
func (c *confinedDir) ReadPost(name string) ([]byte, error) {
	if fi, err := c.root.Lstat(name); err != nil {
		return nil, err
	} else if !fi.Mode().IsRegular() {
		return nil, errNotRegular
	}
	f, err := c.root.OpenFile(name, os.O_RDONLY|oNonblock, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() { // swapped after the Lstat
		return nil, errNotRegular
	}
	if fi.Size() > MaxPostSize {
		return nil, fmt.Errorf("%d bytes, over the %d-byte limit; left out", fi.Size(), MaxPostSize)
	}
	data, err := io.ReadAll(io.LimitReader(f, MaxPostSize+1))
	if err != nil {
		return nil, err
	}
	if len(data) > MaxPostSize {
		return nil, fmt.Errorf("over the %d-byte limit; left out", MaxPostSize)
	}
	return data, nil
}

// fsPosts reads posts from any fs.FS (tests), with the same refusals as confinedDir.
type fsPosts struct{ fs.FS }

func (f fsPosts) ReadPost(name string) ([]byte, error) {
	fi, err := fs.Stat(f.FS, name)
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, errNotRegular
	}
	if fi.Size() > MaxPostSize {
		return nil, fmt.Errorf("%d bytes, over the %d-byte limit; left out", fi.Size(), MaxPostSize)
	}
	return fs.ReadFile(f.FS, name)
}

// FSPosts lets ReadPosts read from an fs.FS.
func FSPosts(fsys fs.FS) PostFiles { return fsPosts{fsys} }
