package lsp

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing/fstest"
	"time"

	"github.com/okf-tools/okf/internal/bytesize"
	"github.com/okf-tools/okf/lint"
	"github.com/okf-tools/okf/okf"
)

// bundleState is one bundle the editor has a file of open: loaded once through its confined
// FileSystem with its configuration, and kept up to date one file at a time.
type bundleState struct {
	s     *server
	root  string // absolute folder; for a file in no bundle, its folder (alone is then set)
	alone string // the one file's slash name when the file is in no bundle

	r       *okf.FileSystem
	cfg     *lint.Config
	ignore  []string
	session *lint.Session
	sessNow time.Time // the clock the session was made with

	b        *okf.Bundle
	buffers  map[string][]byte // open documents' text, by slash path
	edited   map[string]bool   // paths whose text changed since the last check
	oversize map[string]bool   // open documents over the size limit: kept out of the bundle
	reload   bool              // the file set or the configuration changed: load again
	findings map[string][]okf.Diagnostic
	// published is false from a check until its findings are sent: a request that checks the
	// bundle before the pause ends (hover right after a keystroke) leaves them to be published.
	published bool
	err       string // why the bundle could not be opened
}

// bundleFor finds the bundle of the file at path, as okf lint finds it, and opens it the first
// time.
func (s *server) bundleFor(path string) *bundleState {
	root, alone := findRoot(path)
	if b := s.bundles[root]; b != nil && b.alone == alone {
		return b
	}
	b := &bundleState{s: s, root: root, alone: alone, buffers: map[string][]byte{}, edited: map[string]bool{}, oversize: map[string]bool{}, reload: true}
	key := root
	if alone != "" {
		key = path // each file in no bundle is its own
	}
	s.bundles[key] = b
	return b
}

// findRoot is where every command looks for a file's bundle (okf.FindRoot): the folder with
// .okf.yaml, or the top folder of index.md files. A file with no bundle above it is linted alone.
func findRoot(path string) (root, alone string) {
	dir := filepath.Dir(path)
	if r, ok := okf.FindRoot(dir); ok {
		return r, ""
	}
	return dir, filepath.Base(path)
}

func relTo(root, path string) (string, bool) {
	rel, err := filepath.Rel(root, path)
	if err != nil || rel == "." || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) || filepath.IsAbs(rel) {
		return "", false
	}
	return filepath.ToSlash(rel), true
}

func (b *bundleState) rel(path string) (string, bool) {
	if b.alone != "" {
		return b.alone, filepath.Base(path) == b.alone
	}
	return relTo(b.root, path)
}

// changed records the document's text as the bundle's version of its file.
func (b *bundleState) changed(d *openDoc) {
	rel, ok := b.rel(d.path)
	if !ok {
		return
	}
	b.buffers[rel] = []byte(d.text.text)
	b.edited[rel] = true
	if int64(len(d.text.text)) > b.limit() {
		b.oversize[rel] = true
	} else {
		delete(b.oversize, rel)
	}
	if name := filepath.Base(rel); name == okf.ConfigName || name == ".okfignore" {
		b.reload = true // the configuration decides which files exist and which rules run
	}
}

// closed makes the file the one on disk again.
func (b *bundleState) closed(d *openDoc) {
	rel, ok := b.rel(d.path)
	if !ok {
		return
	}
	delete(b.buffers, rel)
	delete(b.oversize, rel)
	b.diskChanged(rel)
}

// diskChanged records that a file changed on disk (created, changed or deleted).
func (b *bundleState) diskChanged(rel string) {
	if _, open := b.buffers[rel]; open {
		return // the editor's text wins while the file is open
	}
	if b.b != nil && b.b.ConceptAt(rel) != nil && b.r != nil {
		if data, err := b.r.ReadFile(rel); err == nil {
			b.buffers[rel] = data // read once; applied below, then dropped
			b.edited[rel] = true
			return
		}
	}
	b.reload = true
}

// pending reports whether the bundle needs a check: a change not checked yet, or a first load. A
// bundle that could not be opened (a .okf.yaml with problems) is not tried again until its
// configuration changes: not on every keystroke.
func (b *bundleState) pending() bool {
	return b.reload || len(b.edited) > 0 || b.b == nil && b.err == ""
}

// check brings the bundle up to date and lints it.
func (b *bundleState) check(now time.Time) {
	if b.b == nil && b.err == "" {
		b.reload = true // the first check loads it
	}
	if !b.reload && b.b != nil {
		for rel := range b.edited {
			if b.oversize[rel] {
				continue // not read, as the loader reads no file over the limit: reported below
			}
			nb, ok := b.b.WithFile(rel, b.buffers[rel], okf.LoadOptions{})
			if !ok {
				b.reload = true
				break
			}
			b.b = nb
		}
	}
	for rel := range b.edited {
		if _, open := b.openDoc(rel); !open {
			delete(b.buffers, rel) // a disk change, applied: the disk holds it
		}
	}
	b.edited = map[string]bool{}
	if b.reload {
		b.load(now)
	}
	b.published = false
	b.findings = map[string][]okf.Diagnostic{}
	if b.b == nil {
		return
	}
	if b.session == nil || !b.sessNow.Equal(now) {
		b.session = lint.NewSession(lint.Options{Now: now, Config: b.cfg})
		b.sessNow = now
	}
	for _, d := range b.session.Check(b.b) {
		if b.oversize[d.Pos.Path] {
			continue // findings about the text on disk, which the editor no longer shows
		}
		b.findings[d.Pos.Path] = append(b.findings[d.Pos.Path], d)
	}
	for rel := range b.oversize {
		b.findings[rel] = []okf.Diagnostic{{Pos: okf.Position{Path: rel, Line: 1, Col: 1}, Code: okf.CodeUnreadable, Severity: okf.Error,
			Message: fmt.Sprintf("not read: this text is larger than the %s size limit (%s); skipped (raise the limit with --max-file-size or max_file_size in .okf.yaml)",
				bytesize.Format(b.limit()), bytesize.Format(int64(len(b.buffers[rel]))))}}
	}
}

// limit is the size limit of the bundle's files: what okf lint reads, an open document is held to.
func (b *bundleState) limit() int64 {
	if b.r != nil {
		return b.r.MaxFileSize()
	}
	if b.s.opts.MaxFileSize > 0 {
		return b.s.opts.MaxFileSize
	}
	return okf.DefaultMaxFileSize
}

// openDoc reports whether the file is open in the editor.
func (b *bundleState) openDoc(rel string) (*openDoc, bool) {
	for _, d := range b.s.docs {
		if d.bundle == b {
			if r, ok := b.rel(d.path); ok && r == rel {
				return d, true
			}
		}
	}
	return nil, false
}

// load opens and loads the bundle as okf lint does: confined to its root, with its configuration's
// ignore list and size limit, the open documents' text over the files on disk.
func (b *bundleState) load(now time.Time) {
	b.reload = false
	b.session = nil
	if b.alone != "" {
		// No bundle above: the file alone, as `okf lint -` lints it.
		fsys := okf.OverlayFiles(fstest.MapFS{}, copyBuffers(b.buffers))
		b.b, _ = okf.Load(fsys, okf.LoadOptions{})
		return
	}
	if b.r != nil {
		b.r.Close()
	}
	// Opened as every command opens a bundle (okf.Open): confined, the configuration checked
	// whole, its ignore list and size limit in force.
	o, err := okf.Open(b.root, b.s.opts.MaxFileSize)
	if err != nil {
		if err.Error() != b.err {
			b.s.logf("%s: %v", b.root, err)
			b.s.showError(err) // once per problem: not again on every keystroke
		}
		b.err, b.b = err.Error(), nil
		return
	}
	r := o.FileSystem
	cfg, _, err := lint.LoadConfig(o, "")
	if err != nil {
		b.s.logf("%s: %v", b.root, err)
	}
	b.cfg, b.ignore = cfg, o.Settings.Ignore
	b.r = r
	// Open documents of files that do not exist on disk yet are in the bundle too; their folder
	// must exist (OverlayFiles).
	bufs := copyBuffers(b.buffers)
	for rel, data := range bufs {
		// The limit is known now: a document over it is kept out, as the loader skips such a file.
		if int64(len(data)) > r.MaxFileSize() {
			b.oversize[rel] = true
			delete(bufs, rel)
		} else {
			delete(b.oversize, rel)
		}
	}
	for rel := range bufs {
		if _, err := r.Stat(filepath.ToSlash(filepath.Dir(filepath.FromSlash(rel)))); err != nil && errors.Is(err, fs.ErrNotExist) {
			delete(bufs, rel)
		}
	}
	nb, err := okf.Load(okf.OverlayFiles(r, bufs), okf.LoadOptions{Ignore: b.ignore})
	if err != nil {
		b.err, b.b = err.Error(), nil
		return
	}
	b.err, b.b = "", nb
}

func copyBuffers(m map[string][]byte) map[string][]byte {
	out := make(map[string][]byte, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}

// readFile reads a bundle file as the server sees it: an open document's text, else the file.
func (b *bundleState) readFile(rel string) ([]byte, error) {
	if d, ok := b.openDoc(rel); ok {
		return []byte(d.text.text), nil
	}
	if b.b != nil {
		return b.b.ReadFile(rel)
	}
	return nil, os.ErrNotExist
}
