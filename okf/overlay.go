package okf

import (
	"bytes"
	"io"
	"io/fs"
	"path"
	"sort"
	"time"
)

// Overlay returns base with the file at the slash path p replaced (or added) by data: an editor's
// unsaved buffer linted in the context of the bundle on disk (`okf lint -`). p's folder must exist
// in base. Every other name is base's.
func Overlay(base fs.FS, p string, data []byte) fs.FS {
	return &overlayFS{base: base, path: p, data: data}
}

type overlayFS struct {
	base fs.FS
	path string
	data []byte
}

func (o *overlayFS) info() memInfo { return memInfo{name: path.Base(o.path), size: int64(len(o.data))} }

func (o *overlayFS) Open(name string) (fs.File, error) {
	if name == o.path {
		return &memFile{info: o.info(), r: bytes.NewReader(o.data)}, nil
	}
	return o.base.Open(name)
}

func (o *overlayFS) Stat(name string) (fs.FileInfo, error) {
	if name == o.path {
		return o.info(), nil
	}
	return fs.Stat(o.base, name)
}

func (o *overlayFS) ReadFile(name string) ([]byte, error) {
	if name == o.path {
		return bytes.Clone(o.data), nil
	}
	return fs.ReadFile(o.base, name)
}

func (o *overlayFS) ReadDir(name string) ([]fs.DirEntry, error) {
	es, err := fs.ReadDir(o.base, name)
	if err != nil || name != path.Dir(o.path) {
		return es, err
	}
	out := make([]fs.DirEntry, 0, len(es)+1)
	for _, e := range es {
		if e.Name() != path.Base(o.path) {
			out = append(out, e)
		}
	}
	out = append(out, fs.FileInfoToDirEntry(o.info()))
	sort.Slice(out, func(i, j int) bool { return out[i].Name() < out[j].Name() })
	return out, nil
}

type memInfo struct {
	name string
	size int64
}

func (m memInfo) Name() string       { return m.name }
func (m memInfo) Size() int64        { return m.size }
func (m memInfo) Mode() fs.FileMode  { return 0o644 }
func (m memInfo) ModTime() time.Time { return time.Time{} }
func (m memInfo) IsDir() bool        { return false }
func (m memInfo) Sys() any           { return nil }

type memFile struct {
	info memInfo
	r    *bytes.Reader
}

func (f *memFile) Stat() (fs.FileInfo, error) { return f.info, nil }
func (f *memFile) Read(b []byte) (int, error) { return f.r.Read(b) }
func (f *memFile) Close() error               { return nil }

var _ io.Reader = (*memFile)(nil)
