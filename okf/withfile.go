package okf

import (
	"fmt"
	"io/fs"
	"path"
	"sort"
	"strings"
)

// A bundle in an editor changes one file at a time, many times a second. Loading it again for each
// keystroke reads and parses every file; WithFile parses the one that changed and shares the rest.

// WithFile returns a copy of b in which the concept file at the slash path p holds data: the file
// parsed again as the loader parses it (with opts' OnFrontmatter and SkipBodies), every other
// concept, index and log shared with b (not copied: neither bundle may be changed afterwards), the
// loader's findings about p replaced, and b.FS overlaid with data (OverlayFiles), so that a rule
// reading the file reads the new text. ok is false when p is not a concept file already in b (an
// index or log, whose findings depend on the bundle's other files, or a new file, which changes the
// file set): load the bundle again (with OverlayFiles for the unsaved buffers) then.
func (b *Bundle) WithFile(p string, data []byte, opts LoadOptions) (nb *Bundle, ok bool) {
	old := b.ConceptAt(p)
	if old == nil || path.Base(p) == "index.md" || path.Base(p) == "log.md" {
		return nil, false
	}
	fsys := OverlayFiles(b.FS, map[string][]byte{p: data})
	r := parseFile(job{p, conceptFile}, data, fsys, nil, opts.OnFrontmatter, opts.SkipBodies)
	if r.concept == nil {
		return nil, false
	}
	nb = &Bundle{Root: b.Root, FS: fsys, Indexes: b.Indexes, Logs: b.Logs, Ignored: b.Ignored, files: b.files}
	nb.Concepts = make([]*Concept, len(b.Concepts))
	copy(nb.Concepts, b.Concepts)
	i := sort.Search(len(nb.Concepts), func(i int) bool { return nb.Concepts[i].ID >= old.ID })
	nb.Concepts[i] = r.concept
	nb.byID = make(map[string]*Concept, len(b.byID))
	for id, c := range b.byID {
		nb.byID[id] = c
	}
	nb.byID[r.concept.ID] = r.concept
	var ds []Diagnostic
	for _, d := range b.Diagnostics {
		if d.Pos.Path != p {
			ds = append(ds, d)
		}
	}
	nb.Diagnostics = SortDiagnostics(append(ds, r.diags...))
	return nb, true
}

// Alone returns a bundle that holds the concept c alone but answers Stat, ResolvePath and
// ResolveLink for the whole of b: what LoadOptions.OnConcept is given, for running a check of one
// concept (lint's per-concept rules) outside a load. Its ReadFile (and its FS) reads the files of b
// other than Markdown (a computation's SQL, a schema) and c's own file, and refuses every other
// .md file (another concept, an index, a log) as if it were missing: a check of one concept whose
// findings depended on another file's text would go stale when that file changes alone (an
// editor's WithFile keeps the other concepts' results).
func (b *Bundle) Alone(c *Concept) *Bundle {
	return &Bundle{Root: b.Root, FS: &viewFS{base: b.FS, own: c.Path}, Concepts: []*Concept{c}, files: b.files, byID: map[string]*Concept{c.ID: c}}
}

// viewFS is the file system of a bundle holding one concept (Alone, LoadOptions.OnConcept): base's
// files, but no Markdown file other than own. Names are what Bundle.ReadFile hands over (cleaned,
// valid fs paths); any other name is refused the same way when it names a .md file.
type viewFS struct {
	base fs.FS
	own  string // the concept's slash path
}

// errOtherFile is why a view refuses a file: it reads as missing (fs.ErrNotExist), so a rule treats
// it as it treats a file that is not there.
var errOtherFile = fmt.Errorf("not readable in a check of one concept: %w", fs.ErrNotExist)

// refuses reports whether name is a Markdown file other than the view's concept. The suffix is
// compared without case (a case-insensitive disk opens B.MD as b.md); so is nothing else: a
// name spelled differently from own is refused, which at worst leaves a check without a file it
// did not need.
func (v *viewFS) refuses(name string) bool {
	clean := path.Clean(name)
	if clean == v.own {
		return false
	}
	return len(clean) >= 3 && strings.EqualFold(clean[len(clean)-3:], ".md")
}

func (v *viewFS) Open(name string) (fs.File, error) {
	if v.refuses(name) {
		return nil, &fs.PathError{Op: "open", Path: name, Err: errOtherFile}
	}
	return v.base.Open(name)
}

func (v *viewFS) ReadFile(name string) ([]byte, error) {
	if v.refuses(name) {
		return nil, &fs.PathError{Op: "read", Path: name, Err: errOtherFile}
	}
	return fs.ReadFile(v.base, name)
}

func (v *viewFS) Stat(name string) (fs.FileInfo, error) { return fs.Stat(v.base, name) }

func (v *viewFS) ReadDir(name string) ([]fs.DirEntry, error) { return fs.ReadDir(v.base, name) }
