package trust

import (
	"errors"
	"io/fs"
	"path"
	"testing/fstest"
	"time"
)

// revisionFS is a bundle as it was at a git revision: the contents okf reads, in memory, and the
// size git reports for each file over the size limit, whose content is never fetched (a revision
// holding a 200 MB file costs nothing). Opening or reading such a file fails; Stat gives its size,
// which is what okf's FileSystem checks first, so the loader reports it as over the limit.
type revisionFS struct {
	fstest.MapFS
	large map[string]int64
}

var errNotFetched = errors.New("larger than the size limit: not fetched from git")

func (r revisionFS) Open(name string) (fs.File, error) {
	if _, ok := r.large[name]; ok {
		return nil, &fs.PathError{Op: "open", Path: name, Err: errNotFetched}
	}
	return r.MapFS.Open(name)
}

func (r revisionFS) ReadFile(name string) ([]byte, error) {
	if _, ok := r.large[name]; ok {
		return nil, &fs.PathError{Op: "read", Path: name, Err: errNotFetched}
	}
	return r.MapFS.ReadFile(name)
}

func (r revisionFS) Stat(name string) (fs.FileInfo, error) {
	if n, ok := r.large[name]; ok {
		return largeInfo{name: path.Base(name), size: n}, nil
	}
	return r.MapFS.Stat(name)
}

type largeInfo struct {
	name string
	size int64
}

func (i largeInfo) Name() string       { return i.name }
func (i largeInfo) Size() int64        { return i.size }
func (i largeInfo) Mode() fs.FileMode  { return 0o644 }
func (i largeInfo) ModTime() time.Time { return time.Time{} }
func (i largeInfo) IsDir() bool        { return false }
func (i largeInfo) Sys() any           { return nil }
