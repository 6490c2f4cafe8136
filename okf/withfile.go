package okf

import (
	"path"
	"sort"
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

// Alone returns a bundle that holds the concept c alone but answers Stat, ResolvePath, ResolveLink
// and ReadFile for the whole of b: what LoadOptions.OnConcept is given, for running a check of one
// concept (lint's per-concept rules) outside a load.
func (b *Bundle) Alone(c *Concept) *Bundle {
	return &Bundle{Root: b.Root, FS: b.FS, Concepts: []*Concept{c}, files: b.files, byID: map[string]*Concept{c.ID: c}}
}
