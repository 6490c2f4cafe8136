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
	return OverlayFiles(base, map[string][]byte{p: data})
}

// OverlayFiles is Overlay for several files at once (an editor's open buffers, okf lsp). An
// overlay of an overlay is flattened: the new files are added to the old ones over the same base,
// so an editor's thousandth keystroke reads through one layer, not a thousand.
func OverlayFiles(base fs.FS, files map[string][]byte) fs.FS {
	all := make(map[string][]byte, len(files))
	if o, ok := base.(*overlayFS); ok {
		for p, d := range o.files {
			all[p] = d
		}
		base = o.base
	}
	for p, d := range files {
		all[p] = d
	}
	return &overlayFS{base: base, files: all}
}

type overlayFS struct {
	base  fs.FS
	files map[string][]byte
}

func (o *overlayFS) info(p string) memInfo {
	return memInfo{name: path.Base(p), size: int64(len(o.files[p]))}
}

func (o *overlayFS) Open(name string) (fs.File, error) {
	if d, ok := o.files[name]; ok {
		return &memFile{info: o.info(name), r: bytes.NewReader(d)}, nil
	}
	return o.base.Open(name)
}

func (o *overlayFS) Stat(name string) (fs.FileInfo, error) {
	if _, ok := o.files[name]; ok {
		return o.info(name), nil
	}
	return fs.Stat(o.base, name)
}

func (o *overlayFS) ReadFile(name string) ([]byte, error) {
	if d, ok := o.files[name]; ok {
		return bytes.Clone(d), nil
	}
	return fs.ReadFile(o.base, name)
}

func (o *overlayFS) ReadDir(name string) ([]fs.DirEntry, error) {
	es, err := fs.ReadDir(o.base, name)
	if err != nil {
		return es, err
	}
	mine := map[string]bool{}
	for p := range o.files {
		if path.Dir(p) == name {
			mine[path.Base(p)] = true
		}
	}
	if len(mine) == 0 {
		return es, nil
	}
	out := make([]fs.DirEntry, 0, len(es)+len(mine))
	for _, e := range es {
		if !mine[e.Name()] {
			out = append(out, e)
		}
	}
	for p := range o.files {
		if path.Dir(p) == name {
			out = append(out, fs.FileInfoToDirEntry(o.info(p)))
		}
	}
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
