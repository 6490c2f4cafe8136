package generate

import (
	"errors"
	"fmt"
	"io/fs"

	"github.com/okf-tools/okf/internal/bytesize"
	"github.com/okf-tools/okf/okf"
)

// MaxPostSize is the default largest post (or authors file) gen reads, in bytes: far above any
// real post; a larger file is reported and left out, so memory stays bounded by it.
const MaxPostSize = okf.DefaultMaxFileSize

// confinedDir is a posts (or authors) folder read through okf.FileSystem, okf's one confined door:
// no path, ".." or symbolic link read through it leads outside the folder, only regular files are
// read (a FIFO or device is refused without blocking), and no file larger than the limit is read.
// On top of that, gen reads no post through a symbolic link at all.
type confinedDir struct{ *okf.FileSystem }

// openConfined opens dir with a per-file limit of maxSize bytes (MaxPostSize when <= 0). Close it
// when done.
func openConfined(dir string, maxSize int64) (*confinedDir, error) {
	if err := okf.CheckLinkedOut(dir); err != nil {
		return nil, err
	}
	r, err := okf.OpenFileSystem(dir, maxSize)
	if err != nil {
		return nil, err
	}
	return &confinedDir{r}, nil
}

var errNotRegular = errors.New("not a regular file (a symbolic link, pipe or device); left out")

// ReadPost reads a regular file below the folder, within the size limit.
func (c *confinedDir) ReadPost(name string) ([]byte, error) {
	if fi, err := c.FileSystem.Lstat(name); err != nil {
		return nil, err
	} else if !fi.Mode().IsRegular() {
		return nil, errNotRegular
	}
	data, err := c.FileSystem.ReadFile(name)
	if errors.Is(err, okf.ErrTooLarge) {
		return nil, fmt.Errorf("larger than the %s limit (--max-file-size); left out", bytesize.Format(c.FileSystem.MaxFileSize()))
	}
	if errors.Is(err, okf.ErrNotRegular) {
		return nil, errNotRegular
	}
	return data, err
}

// FSPosts lets ReadPosts read from an fs.FS (tests), with the same refusals.
func FSPosts(fsys fs.FS) PostFiles { return &confinedDir{okf.NewFileSystem(fsys, 0)} }
