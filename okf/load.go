package okf

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"unicode/utf8"

	"github.com/okf-tools/okf/internal/escape"
	"github.com/okf-tools/okf/okf/internal/fastyaml"
	"go.yaml.in/yaml/v3"
)

// Bundle is a loaded OKF bundle (§3): its concepts sorted by ID, its reserved files, and the
// diagnostics found while loading (conformance errors, §11, and files that could not be read).
type Bundle struct {
	// Root is the directory the bundle was loaded from ("" when loaded from an fs.FS).
	Root string
	// FS reads the bundle's files.
	FS       fs.FS
	Concepts []*Concept
	// Indexes and Logs are the reserved files, sorted by path.
	Indexes []*Index
	Logs    []*Log
	// Diagnostics are sorted and deduplicated.
	Diagnostics []Diagnostic
	// Ignored lists the paths left out by .okfignore or the ignore option, sorted.
	Ignored []string

	files map[string]bool // every walked file and folder (slash path → is a folder)
	byID  map[string]*Concept
}

// Concept is one concept document (§4). Frontmatter is never nil: Frontmatter.Present is false when
// the file has none or it could not be read.
type Concept struct {
	// ID is the path without `.md` (§2); Path is the slash path from the bundle root.
	ID, Path    string
	Frontmatter *Frontmatter
	Body        *Body
	// BOM is true when the file starts with a UTF-8 byte order mark.
	BOM bool
}

// Drop releases the concept's parsed model once a caller has taken what it needs from it (lint's
// Stream keeps a few facts of each concept, so that a large bundle is never held whole):
// Frontmatter becomes an empty one that says only whether a frontmatter was read, and Body an
// empty one. Both are shared by every dropped concept and must not be changed; the frontmatter's
// Node and Raw no longer answer. With LoadOptions.ReuseDropped, the loader fills the dropped
// frontmatter's storage with the next file's.
func (c *Concept) Drop() {
	if c.Frontmatter != nil && c.Frontmatter.Present {
		c.Frontmatter = droppedPresent
	} else {
		c.Frontmatter = droppedAbsent
	}
	c.Body = droppedBody
}

// Dropped reports whether Drop released the concept's model (a caller may have given it a new
// Body since: its frontmatter says).
func (c *Concept) Dropped() bool {
	return c.Frontmatter == droppedPresent || c.Frontmatter == droppedAbsent
}

// What Drop leaves.
var (
	droppedPresent = &Frontmatter{Present: true, uncommon: noUncommon}
	droppedAbsent  = &Frontmatter{uncommon: noUncommon}
	droppedBody    = &Body{}
)

// Dir returns the concept's folder ("" at the root).
func (c *Concept) Dir() string { return dirOf(c.Path) }

// Conformant reports whether the concept has readable frontmatter with a non-empty string type.
func (c *Concept) Conformant() bool {
	t := c.Frontmatter.Type
	return c.Frontmatter.Present && t.IsString() && strings.TrimSpace(t.Raw) != ""
}

// LoadOptions tunes loading.
type LoadOptions struct {
	// Ignore adds gitignore-syntax patterns to those of `.okfignore` (D5).
	Ignore []string
	// Workers is how many files are read and parsed at once (0: two per CPU).
	Workers int
	// MaxFileSize is the largest file read, in bytes (0: DefaultMaxFileSize). A larger file is
	// reported (OKF010) and skipped without being read. When loading from a *FileSystem, its own
	// limit applies unless this one is set.
	MaxFileSize int64
	// OnFrontmatter, when not nil, is called with each concept whose frontmatter parsed, and that
	// frontmatter's top mapping (file lines, as Frontmatter.Node returns it), by the loading
	// workers, concurrently, as soon as the concept is read. A caller that examines every
	// frontmatter's YAML (lint's schema check) does it here rather than parse it a second time
	// later. The node must not be changed nor kept after the call: the worker reuses its memory for
	// the next file.
	OnFrontmatter func(c *Concept, top *yaml.Node)
	// OnFile, when not nil, is called with the slash path and the bytes of every concept, index.md
	// and log.md the loader read, as read (before any parsing, whatever the file holds), by the
	// loading workers, concurrently. A caller that keeps each file's text (okf serve) takes it here
	// rather than read every file a second time. It is not called for a file that could not be read
	// (its OKF010 diagnostic says why). Nobody may change src: the worker parses it after the call.
	// When OnFile returns false, src must not be kept after the call (the worker reuses its memory
	// for the next file); when it returns true, the caller owns src from then on and the worker
	// reads the next file into new memory.
	OnFile func(path string, src []byte) (keep bool)
	// SkipBodies leaves every concept's Body empty (no links, headings, code blocks…) instead of
	// parsing its Markdown, the larger part of loading a concept. For a caller that reads no body
	// until later, if ever (okf serve, whose search reads the text it keeps): it parses a body
	// when it needs one with ParseConcept, which reads a file exactly as the loader does. Index and
	// log bodies are always parsed, and every diagnostic is the same either way (none comes from
	// parsing a concept's body).
	SkipBodies bool
	// OnConcept, when not nil, is called by the loading workers, concurrently, with every concept
	// as soon as it is loaded (whatever its file held: unreadable, without frontmatter…), after
	// OnFrontmatter, together with a bundle that holds that concept alone: the whole bundle's file
	// set (Stat, ResolvePath and ResolveLink answer as on the loaded bundle; ReadFile too, but for
	// the .md files other than c's own, which it refuses: see Bundle.Alone), and no index, log or
	// diagnostic; that bundle is the worker's, reused for its next concept, so it
	// must not be kept after the call. A caller that checks each concept on its own (lint's per-concept
	// rules) does it here, while the file's model is fresh, and may then drop from c what it will
	// not read again, so that a large bundle is never held whole: c is the caller's from the call
	// on, and the loader only files it in Bundle.Concepts.
	OnConcept func(one *Bundle, c *Concept)
	// ReuseDropped lets the loader fill the storage of a frontmatter that OnConcept dropped
	// (Concept.Drop) with the worker's next file's, the largest allocation of a parse: a caller
	// that sets it keeps no pointer to the dropped Frontmatter and no slice of its Keys (values
	// copied out of it, strings included, stay as they are). lint's, trust's and attest's
	// streams set it.
	ReuseDropped bool
}

// ErrNotBundle is returned (wrapped) when the root cannot be read as a directory.
var ErrNotBundle = errors.New("not a readable bundle directory")

// LoadDir loads the bundle rooted at dir. The error is non-nil only when dir itself cannot be read;
// every problem with a file is a diagnostic, and loading goes on with the other files.
func LoadDir(dir string, opts LoadOptions) (*Bundle, error) {
	r, err := OpenBundle(dir, opts.MaxFileSize)
	if err != nil {
		return nil, err
	}
	return LoadFileSystem(r, opts)
}

// OpenBundle opens the bundle folder dir as a FileSystem (see OpenFileSystem), for reading its
// configuration before loading it with LoadFileSystem. A folder that leaves its git checkout
// through a symbolic link is refused (CheckLinkedOut). The error wraps ErrNotBundle when dir is not
// a readable folder.
func OpenBundle(dir string, maxSize int64) (*FileSystem, error) {
	st, err := os.Stat(dir)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrNotBundle, err)
	}
	if !st.IsDir() {
		return nil, fmt.Errorf("%w: %s is not a directory", ErrNotBundle, dir)
	}
	if err := CheckLinkedOut(dir); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrNotBundle, err)
	}
	r, err := OpenFileSystem(dir, maxSize)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrNotBundle, err)
	}
	return r, nil
}

// FileSystem returns the FileSystem the bundle's files are read through (confined, regular files
// only, at most its size limit).
func (b *Bundle) FileSystem() *FileSystem {
	if r, ok := b.FS.(*FileSystem); ok {
		return r
	}
	return NewFileSystem(b.FS, 0)
}

// LoadFileSystem loads the bundle a FileSystem was opened on: every file is read through it
// (confined to the folder, regular files only, at most its size limit). The bundle keeps the
// FileSystem to read files again (Bundle.ReadFile, Frontmatter.Raw).
func LoadFileSystem(r *FileSystem, opts LoadOptions) (*Bundle, error) {
	if r.osFS == nil {
		return Load(r, opts)
	}
	real, err := filepath.EvalSymlinks(r.dir)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrNotBundle, err)
	}
	l := &loader{fsys: NewFileSystem(r, opts.MaxFileSize), realRoot: real, opts: opts, gate: newByteGate(ParseBudget)}
	b, err := l.load()
	if err != nil {
		return nil, err
	}
	b.Root = r.dir
	return b, nil
}

// Load loads a bundle from fsys (tests, embedded bundles, archives), with the same checks as
// LoadDir as far as fsys allows: regular files only, at most the size limit each. Confinement is
// fsys's own (os.DirFS follows symbolic links anywhere): for a folder on disk use LoadDir, or pass
// a *FileSystem from OpenFileSystem.
func Load(fsys fs.FS, opts LoadOptions) (*Bundle, error) {
	l := &loader{fsys: NewFileSystem(fsys, opts.MaxFileSize), opts: opts, gate: newByteGate(ParseBudget)}
	return l.load()
}

type loader struct {
	fsys     *FileSystem // every read goes through it
	realRoot string      // real path of the root on disk, for symlink checks ("" for other file systems)
	opts     LoadOptions
	gate     *byteGate // bounds the bytes parsed at once (ParseBudget)
}

type fileKind int

const (
	conceptFile fileKind = iota
	indexFile
	logFile
)

type job struct {
	path string
	kind fileKind
}

type result struct {
	concept *Concept
	index   *Index
	log     *Log
	diags   []Diagnostic
}

// MaxDepth is how many folders deep the loader reads: a folder nested deeper is reported (OKF010)
// and nothing below it is read. Real bundles nest a few levels; the bound keeps the cost of opening
// a file through os.Root (one step per folder on its path) small whatever the checkout holds.
const MaxDepth = 32

func (l *loader) load() (*Bundle, error) {
	if _, err := fs.ReadDir(l.fsys, "."); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrNotBundle, err)
	}
	b := &Bundle{FS: l.fsys, files: map[string]bool{"": true}}
	var jobs []job
	var diags []Diagnostic
	ig := &Ignore{}
	if data, err := l.fsys.ReadFile(".okfignore"); err == nil {
		ig = ParseIgnore(data)
		if n := ig.Dropped(); n > 0 {
			diags = append(diags, Diagnostic{Pos: Position{Path: ".okfignore"}, Code: CodeUnreadable, Severity: Error,
				Message: fmt.Sprintf("only the first %d patterns apply: %d more lines (or patterns over %d bytes) are not applied", MaxIgnorePatterns, n, MaxIgnorePatternLen)})
		}
	} else if !errors.Is(err, fs.ErrNotExist) {
		diags = append(diags, unreadable(".okfignore", err))
	}
	for _, p := range l.opts.Ignore {
		ig.Add(p)
	}
	err := fs.WalkDir(l.fsys, ".", func(p string, d fs.DirEntry, err error) error {
		if p == "." {
			return err
		}
		if err != nil {
			diags = append(diags, Diagnostic{Pos: Position{Path: p}, Code: CodeUnreadable, Severity: Error, Message: fmt.Sprintf("cannot read: %v", unwrapPathError(err))})
			return nil
		}
		name := d.Name()
		if strings.HasPrefix(name, ".") {
			if d.IsDir() {
				return fs.SkipDir
			}
			return nil
		}
		isDir := d.IsDir()
		isLink := d.Type()&fs.ModeSymlink != 0
		if isLink && (ig.Match(p, false) || ig.Match(p, true)) {
			// An ignored link is left alone, wherever it leads.
			b.Ignored = append(b.Ignored, p)
			return nil
		}
		if isLink {
			target, ok, msg := l.followLink(p)
			if !ok {
				if msg != "" {
					diags = append(diags, Diagnostic{Pos: Position{Path: p}, Code: CodeSymlinkOutside, Severity: Warning, Message: msg})
				}
				return nil
			}
			isDir = target.IsDir()
			if isDir {
				b.files[p] = true
				return nil // linked folders are not descended: they could loop
			}
		}
		if ig.Match(p, isDir) {
			b.Ignored = append(b.Ignored, p)
			if isDir {
				b.files[p] = true
				return fs.SkipDir
			}
			b.files[p] = false
			return nil
		}
		if isDir && strings.Count(p, "/") >= MaxDepth {
			// Bound: os.Root resolves a path one folder at a time, so every open costs its depth;
			// nesting as deep as a path allows (2,000 folders) made each file cost 2,000 opens.
			diags = append(diags, Diagnostic{Pos: Position{Path: p}, Code: CodeUnreadable, Severity: Error,
				Message: fmt.Sprintf("not read: a folder nested more than %d levels deep; nothing below it is read", MaxDepth)})
			b.files[p] = true
			return fs.SkipDir
		}
		b.files[p] = isDir
		if isDir || !strings.HasSuffix(name, ".md") {
			return nil
		}
		if !isLink && !d.Type().IsRegular() {
			// A named pipe, socket or device named like a concept: reported, never opened.
			diags = append(diags, unreadable(p, &fs.PathError{Op: "read", Path: p, Err: notRegular(d.Type())}))
			return nil
		}
		switch name {
		case "index.md":
			jobs = append(jobs, job{p, indexFile})
		case "log.md":
			jobs = append(jobs, job{p, logFile})
		default:
			jobs = append(jobs, job{p, conceptFile})
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrNotBundle, err)
	}
	results := make([]result, len(jobs))
	workers := l.opts.Workers
	if workers <= 0 {
		// Twice the CPUs: a worker waiting on a read leaves its CPU to another (measured on the
		// 2-core machine: 1.00 s with 2 workers, 0.88 s with 4, no better with 8).
		workers = 2 * runtime.GOMAXPROCS(0)
	}
	// Workers claim the next job by an atomic counter, not a channel: a send per file woke a parked
	// worker through the scheduler (a futex call and a context switch each) for work that takes
	// tens of microseconds.
	var next atomic.Int64
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			// The scratch is reused for every file this worker reads. Bound: its buffer never holds
			// more than the size limit plus one byte (FileSystem.ReadFileInto), and a buffer grown
			// past 1 MiB by a large file is dropped afterwards, so workers hold at most workers ×
			// (limit+1) at once and 1 MiB each between large files; its YAML slab is bounded by
			// fastyaml's maxScratchNodes.
			var s scratch
			defer s.folder.close()
			var one *Bundle // what OnConcept is given, this worker's
			var view *viewFS
			if l.opts.OnConcept != nil {
				view = &viewFS{base: b.FS}
				one = &Bundle{FS: view, Concepts: make([]*Concept, 1), files: b.files, byID: make(map[string]*Concept, 1)}
			}
			for {
				i := int(next.Add(1) - 1)
				if i >= len(jobs) {
					break
				}
				results[i] = l.loadFile(jobs[i], &s)
				if cap(s.buf) > 1<<20 {
					s.buf = nil
				}
				// After loadFile, so outside the parse budget: the hook's work is not parsing.
				if c := results[i].concept; c != nil && one != nil {
					one.Concepts[0] = c
					clear(one.byID)
					one.byID[c.ID] = c
					view.own = c.Path
					fm := c.Frontmatter
					l.opts.OnConcept(one, c)
					if l.opts.ReuseDropped {
						s.keep(c, fm)
					}
				}
			}
		}()
	}
	wg.Wait()
	b.byID = make(map[string]*Concept, len(jobs))
	for _, r := range results {
		diags = append(diags, r.diags...)
		switch {
		case r.concept != nil:
			b.Concepts = append(b.Concepts, r.concept)
			b.byID[r.concept.ID] = r.concept
		case r.index != nil:
			b.Indexes = append(b.Indexes, r.index)
		case r.log != nil:
			b.Logs = append(b.Logs, r.log)
		}
	}
	sort.Slice(b.Concepts, func(i, j int) bool { return b.Concepts[i].ID < b.Concepts[j].ID })
	sort.Slice(b.Indexes, func(i, j int) bool { return b.Indexes[i].Path < b.Indexes[j].Path })
	sort.Slice(b.Logs, func(i, j int) bool { return b.Logs[i].Path < b.Logs[j].Path })
	sort.Strings(b.Ignored)
	b.Diagnostics = SortDiagnostics(diags)
	return b, nil
}

// followLink decides whether a symbolic link may be read: only when it leads inside the root (D5).
func (l *loader) followLink(p string) (fs.FileInfo, bool, string) {
	if l.realRoot != "" {
		real, err := filepath.EvalSymlinks(filepath.Join(l.realRoot, filepath.FromSlash(p)))
		if err != nil {
			return nil, false, fmt.Sprintf("broken symbolic link: %v", unwrapPathError(err))
		}
		rel, err := filepath.Rel(l.realRoot, real)
		if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			return nil, false, fmt.Sprintf("symbolic link leads outside the bundle (to %q): not followed", real)
		}
		for _, part := range strings.Split(rel, string(filepath.Separator)) {
			if strings.EqualFold(part, ".git") {
				// A repository's files are never bundle content (ErrIntoGit).
				return nil, false, fmt.Sprintf("symbolic link leads into a .git folder (%q): not followed", filepath.ToSlash(rel))
			}
		}
	}
	info, err := fs.Stat(l.fsys, p)
	if err != nil {
		return nil, false, fmt.Sprintf("broken symbolic link: %v", unwrapPathError(err))
	}
	return info, true, ""
}

func unwrapPathError(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// scratch is the memory one worker reuses from file to file: the read buffer, fastYAML's nodes and
// a handle on the folder it last read from.
// Parsing copies every string it keeps, so nothing loaded points into it (this saves a file-sized
// allocation and a YAML tree per concept).
type scratch struct {
	buf    []byte
	yaml   fastyaml.Scratch
	folder folderHandle // the folder of the last file read
	lines  lineIndex    // the last file's line index, its table reused (bounded: maxKeptLineStarts)
	body   bodyScratch  // the Markdown fast path's lists
	spare  *Frontmatter // a dropped concept's frontmatter, for the next file (keep)
}

// keep takes fm, what c's frontmatter was before OnConcept, as the next file's (takeSpare) when
// OnConcept dropped c (Concept.Drop), under LoadOptions.ReuseDropped: the caller has then taken
// what it needs of it and keeps nothing of it. A frontmatter built by hand or shared (a dropped
// one) is never taken, nor one whose Keys' storage a file of many keys grew past maxSpareKeys:
// every later file would carry (and the collector scan) that storage.
func (s *scratch) keep(c *Concept, fm *Frontmatter) {
	if c.Dropped() && fm != nil && fm.Present && fm != droppedPresent && fm.uncommon != nil && cap(fm.Keys) <= maxSpareKeys {
		s.spare = fm
	}
}

// maxSpareKeys bounds the Keys storage a worker keeps from file to file (keep).
const maxSpareKeys = 256

// takeSpare returns the frontmatter keep took, once (nil: none, or no scratch).
func (s *scratch) takeSpare() *Frontmatter {
	if s == nil {
		return nil
	}
	f := s.spare
	s.spare = nil
	return f
}

// lineIndex returns the line index of src, in s's storage when s is not nil. Like the read buffer,
// it is the next file's once this file's model is built (no model keeps a lineIndex).
func (s *scratch) lineIndex(src []byte) *lineIndex {
	if s == nil {
		return newLineIndex(src)
	}
	s.lines.reset(src)
	return &s.lines
}

// loadFile reads and parses one file; it never fails, problems become diagnostics.
func (l *loader) loadFile(j job, s *scratch) result {
	src, err := l.fsys.readFileVia(&s.folder, j.path, s.buf)
	if err != nil {
		return l.empty(j, []Diagnostic{unreadable(j.path, err)})
	}
	s.buf = src
	if l.opts.OnFile != nil && l.opts.OnFile(j.path, src) {
		s.buf = nil // the caller keeps src
	}
	n := l.gate.acquire(int64(len(src)))
	defer l.gate.release(n)
	if parseHook != nil {
		// Deferred after the release, so it runs before it: the hook never sees this parse end
		// after another has been let in (its measure of the bytes parsed at once stays exact).
		parseHook(int64(len(src)))
		defer parseHook(-int64(len(src)))
	}
	return parseFile(j, src, l.fsys, s, l.opts.OnFrontmatter, l.opts.SkipBodies)
}

// ParseBudget is how many bytes of source the loader's workers parse at once. Bound: parsing builds
// a syntax tree many times a file's size (an 8 MiB line of links: about 500 MB, held until the file
// is done), so four workers each on such a file peaked at 2.9 GB; with the budget a file larger
// than it is parsed alone, and files of a few KiB (every real concept) still in parallel.
const ParseBudget = 2 << 20

// parseHook, when set (tests), is told the bytes each parse starts (+n) and ends (-n).
var parseHook func(n int64)

// byteGate is a counting semaphore over bytes: acquire(n) waits until n bytes of the budget are
// free (a request over the whole budget waits for all of it) and returns what it took.
type byteGate struct {
	mu   sync.Mutex
	cond *sync.Cond
	free int64
	size int64
}

func newByteGate(size int64) *byteGate {
	g := &byteGate{free: size, size: size}
	g.cond = sync.NewCond(&g.mu)
	return g
}

func (g *byteGate) acquire(n int64) int64 {
	n = min(max(n, 1), g.size)
	g.mu.Lock()
	for g.free < n {
		g.cond.Wait()
	}
	g.free -= n
	g.mu.Unlock()
	return n
}

func (g *byteGate) release(n int64) {
	g.mu.Lock()
	g.free += n
	g.mu.Unlock()
	g.cond.Broadcast()
}

// loneCROpening reports whether src opens with a delimiter line whose ends are lone carriage
// returns: "---", a CR, then more of the same line ("---\rtype: Note\r…"). A file saved with the
// line ends of classic Mac OS reads as one line (D2), which would otherwise be reported as a file
// that does not begin with a --- line, beside a first line that shows one.
func loneCROpening(src []byte) bool {
	src = bytes.TrimPrefix(src, []byte("\xef\xbb\xbf"))
	line, _, _ := bytes.Cut(src, []byte("\n"))
	line = bytes.TrimLeft(line, " \t")
	rest, ok := bytes.CutPrefix(line, []byte("---"))
	if !ok {
		return false
	}
	rest = bytes.TrimLeft(rest, " \t")
	return len(rest) > 1 && rest[0] == '\r'
}

// unreadable is the OKF010 finding for a file that was not read: why, and for a file over the size
// limit, how to raise it.
func unreadable(p string, err error) Diagnostic {
	msg := fmt.Sprintf("cannot read: %v", unwrapPathError(err))
	switch {
	case errors.Is(err, ErrTooLarge):
		msg = fmt.Sprintf("not read: %v; skipped (raise the limit with --max-file-size or max_file_size in .okf.yaml)", unwrapPathError(err))
	case errors.Is(err, ErrNotRegular):
		msg = fmt.Sprintf("not read: %v", unwrapPathError(err))
		msg = strings.TrimSuffix(msg, ": not read")
	case errors.Is(err, ErrBackslash):
		msg = "not read: its name holds a backslash, a folder separator on Windows, so okf reads it on no system (a bundle reads the same everywhere): rename it"
	case errors.Is(err, ErrOutside):
		msg = "not read: the path, or a symbolic link on it, leads outside the bundle"
	}
	return Diagnostic{Pos: Position{Path: p}, Code: CodeUnreadable, Severity: Error, Message: msg}
}

func (l *loader) empty(j job, diags []Diagnostic) result {
	fm := &Frontmatter{path: j.path, uncommon: noUncommon}
	switch j.kind {
	case indexFile:
		return result{index: &Index{Path: j.path, Frontmatter: fm, Body: &Body{}}, diags: diags}
	case logFile:
		return result{log: &Log{Path: j.path, Frontmatter: fm}, diags: diags}
	}
	return result{concept: &Concept{ID: strings.TrimSuffix(j.path, ".md"), Path: j.path, Frontmatter: fm, Body: &Body{}}, diags: diags}
}

// ParseConceptFrontmatter is ParseConcept without the body (Body is empty, as with
// LoadOptions.SkipBodies), for a caller that reads only the frontmatter.
func ParseConceptFrontmatter(path string, src []byte) *Concept {
	return parseFile(job{path: path, kind: conceptFile}, src, nil, nil, nil, true).concept
}

// ParseConcept parses one concept file's text as the loader does, for callers that hold a file
// outside a bundle (editors, generators). path is the slash path used in positions.
func ParseConcept(path string, src []byte) (*Concept, []Diagnostic) {
	r := parseFile(job{path: path, kind: conceptFile}, src, nil, nil, nil, false)
	return r.concept, r.diags
}

// parseFile parses one file's text. s, when not nil, is the worker's scratch memory;
// onFrontmatter, when not nil, is LoadOptions.OnFrontmatter; skipBody is LoadOptions.SkipBodies.
func parseFile(j job, src []byte, fsys fs.FS, s *scratch, onFrontmatter func(*Concept, *yaml.Node), skipBody bool) result {
	var l loader
	if !utf8.Valid(src) {
		li := newLineIndex(src)
		bad := 0
		for bad < len(src) {
			r, size := utf8.DecodeRune(src[bad:])
			if r == utf8.RuneError && size <= 1 {
				break
			}
			bad += size
		}
		line, col := li.pos(bad)
		return l.empty(j, []Diagnostic{{Pos: Position{Path: j.path, Line: clamp32(line), Col: clamp32(col)}, Code: CodeNotUTF8, Severity: Error, Message: fmt.Sprintf("file is not valid UTF-8 (byte 0x%02x): save it as UTF-8", src[bad])}})
	}
	li := s.lineIndex(src)
	sp := SplitFrontmatter(src)
	diags := sp.looseDiagnostics(j.path)
	// Shapes of text the Markdown parser would spend superlinear time on are blanked first
	// (tame.go); offsets are unchanged, so li and sp still hold.
	src, tamedParts := tameBody(src, sp.BodyOffset)
	for _, t := range tamedParts {
		line, col := li.pos(t.off)
		diags = append(diags, Diagnostic{Pos: Position{Path: j.path, Line: clamp32(line), Col: clamp32(col)}, Code: CodeUnreadable, Severity: Error, Message: "not read: " + t.reason + " (it would take the Markdown parser too long)"})
	}
	var fm *Frontmatter // set when the frontmatter reads; an empty one otherwise (below)
	var top *yaml.Node  // the parsed frontmatter, for onFrontmatter
	bodyOffset := sp.BodyOffset
	name := path.Base(j.path)
	switch sp.Status {
	case NoFrontmatter:
		if j.kind == conceptFile {
			msg := "no frontmatter: a concept must begin with a --- line, YAML with a type, and a closing --- line (§11)"
			if loneCROpening(src) {
				msg = "no frontmatter: the file's lines end in a lone carriage return (classic Mac OS line ends), which okf reads as no line end, as the reference parser does, so its first line is not a --- line: save it with LF or CRLF line ends (§11, D2)"
			} else if strings.EqualFold(name, "README.md") {
				msg += "; if this file is not a concept, list it in .okfignore"
			}
			diags = append(diags, Diagnostic{Pos: Position{Path: j.path, Line: 1, Col: 1}, Code: CodeNoFrontmatter, Severity: Error, Message: msg})
		}
	case Unterminated:
		msg := "frontmatter opened on line 1 is never closed: add a line that is exactly ---"
		if hasDashLine(sp.YAML) {
			msg += " (a line of four or more dashes does not close it)"
		}
		sev, code := Error, CodeUnterminated
		if j.kind == logFile {
			sev, code = Warning, CodeLogFrontmatter
		}
		diags = append(diags, Diagnostic{Pos: Position{Path: j.path, Line: 1, Col: 1}, Code: code, Severity: sev, Message: msg})
		bodyOffset = len(src) // nothing reliable to parse as a body
	case FrontmatterOK:
		var ys *fastyaml.Scratch
		if s != nil {
			ys = &s.yaml
		}
		node, err := decodeYAML(sp.YAML, sp.YAMLLine, ys)
		if err != nil {
			line := 1
			msg := err.Error()
			var ye *yamlError
			if errors.As(err, &ye) {
				line, msg = ye.Line, ye.Msg
			}
			sev, code := Error, CodeInvalidYAML
			if j.kind == logFile {
				sev, code = Warning, CodeLogFrontmatter
			}
			diags = append(diags, Diagnostic{Pos: Position{Path: j.path, Line: clamp32(line), Col: 1}, Code: code, Severity: sev, Message: "frontmatter is not valid YAML: " + msg})
		} else {
			fm, top = readFrontmatter(j.path, nil, sp.YAML, sp.YAMLLine, node, s.takeSpare()), node
			if fsys == nil {
				// Outside a bundle there is nothing to re-read from: keep a copy (a sub-slice
				// would keep the whole file alive).
				fm.raw = bytes.Clone(sp.YAML)
			}
			fm.fsys = fsys
		}
	}
	if fm == nil {
		fm = &Frontmatter{path: j.path, uncommon: noUncommon}
	}
	switch j.kind {
	case indexFile:
		x := parseIndex(j.path, src, bodyOffset, li, s.bodyScratch())
		x.Frontmatter = fm
		diags = append(diags, indexDiagnostics(x, sp)...)
		return result{index: x, diags: diags}
	case logFile:
		lg := parseLog(j.path, src, bodyOffset, li)
		lg.Frontmatter = fm
		for _, g := range lg.Groups {
			if !g.Valid {
				diags = append(diags, Diagnostic{Pos: g.Pos, Code: CodeLogHeading, Severity: Error, Message: logHeadingMessage(g.Heading)})
			}
		}
		return result{log: lg, diags: diags}
	}
	c := &Concept{ID: strings.TrimSuffix(j.path, ".md"), Path: j.path, Frontmatter: fm, BOM: sp.BOM}
	if skipBody {
		c.Body = &Body{}
	} else {
		var bs *bodyScratch
		if s != nil {
			bs = &s.body
		}
		c.Body = parseBodyIn(j.path, src, bodyOffset, li, bs)
	}
	if fm.Present {
		t := fm.Type
		switch {
		case !t.Present():
			diags = append(diags, Diagnostic{Pos: Position{Path: j.path, Line: 1, Col: 1}, Code: CodeNoType, Severity: Error, Message: "frontmatter has no type: every concept needs one, for example type: Reference (§4.1)"})
		case !t.IsString():
			diags = append(diags, Diagnostic{Pos: t.Pos, Code: CodeBadType, Severity: Error, Message: fmt.Sprintf("type must be a non-empty string, found %s", t.Describe())})
		case t.Raw == "":
			diags = append(diags, Diagnostic{Pos: t.Pos, Code: CodeBadType, Severity: Error, Message: "type must be a non-empty string, found an empty string"})
		case strings.TrimSpace(t.Raw) == "":
			diags = append(diags, Diagnostic{Pos: t.Pos, Code: CodeBadType, Severity: Error, Message: "type is blank (only whitespace): name the concept's type, for example type: Reference (§4.1)"})
		}
	}
	if onFrontmatter != nil && top != nil {
		onFrontmatter(c, top)
	}
	return result{concept: c, diags: diags}
}

func hasDashLine(yaml []byte) bool {
	for _, l := range strings.Split(string(yaml), "\n") {
		l = strings.TrimRight(l, "\r")
		if len(l) >= 4 && strings.Trim(l, "-") == "" {
			return true
		}
	}
	return false
}

// indexDiagnostics applies D7: no frontmatter below the root; at the root, only okf_version, unless
// the bundle declares a version newer than okf reads (NewerVersion).
func indexDiagnostics(x *Index, sp Split) []Diagnostic {
	if sp.Status != FrontmatterOK || !x.Frontmatter.Present {
		return nil
	}
	if x.Dir() != "" {
		return []Diagnostic{{Pos: Position{Path: x.Path, Line: 1, Col: 1}, Code: CodeIndexFrontmatter, Severity: Error, Message: "index.md below the bundle root must not have frontmatter (§8); move these keys into a concept or drop them"}}
	}
	if v := x.Frontmatter.OKFVersion(); v.Kind == Scalar && NewerVersion(v.Raw) {
		// A newer version may define more root keys (§12): read best effort, and lint says so.
		return nil
	}
	var extra []string
	var first Position
	for _, k := range x.Frontmatter.Keys {
		if k.Name == "okf_version" {
			continue
		}
		if len(extra) == 0 {
			first = k.Pos
		}
		extra = append(extra, escape.Quote(k.Name))
	}
	if len(extra) == 0 {
		return nil
	}
	return []Diagnostic{{Pos: first, Code: CodeRootIndexKeys, Severity: Error, Message: fmt.Sprintf("root index.md frontmatter may carry only okf_version (§8, §12), found %s", strings.Join(extra, ", "))}}
}

// Stat reports whether p (a slash path from the root) is a file or folder of the bundle.
func (b *Bundle) Stat(p string) (exists, isDir bool) {
	isDir, exists = b.files[strings.TrimSuffix(p, "/")]
	return exists, isDir
}

// Concept returns the concept with the given ID, or nil.
func (b *Bundle) Concept(id string) *Concept { return b.byID[id] }

// ConceptAt returns the concept whose file is at the slash path p, or nil.
func (b *Bundle) ConceptAt(p string) *Concept {
	if !strings.HasSuffix(p, ".md") {
		return nil
	}
	return b.byID[strings.TrimSuffix(p, ".md")]
}

// RootIndex returns the bundle-root index.md, or nil.
func (b *Bundle) RootIndex() *Index {
	for _, x := range b.Indexes {
		if x.Path == "index.md" {
			return x
		}
	}
	return nil
}

// OKFVersion returns the root index's okf_version value (absent when there is none, §12).
func (b *Bundle) OKFVersion() Value {
	if x := b.RootIndex(); x != nil {
		return x.Frontmatter.OKFVersion()
	}
	return Value{}
}

// Files returns every walked file and folder path, sorted.
func (b *Bundle) Files() []string {
	out := make([]string, 0, len(b.files))
	for p := range b.files {
		if p != "" {
			out = append(out, p)
		}
	}
	sort.Strings(out)
	return out
}

// ResolvePath resolves a path-valued field written in the file at from (D14).
func (b *Bundle) ResolvePath(from, value string) Resolution { return ResolvePath(b, from, value) }

// ResolveLink resolves a link target written in the file at from (D15).
func (b *Bundle) ResolveLink(from, target string) Resolution { return ResolveLink(b, from, target) }

// ReadFile reads a bundle file by slash path, refusing paths that leave the root.
func (b *Bundle) ReadFile(p string) ([]byte, error) {
	clean, escapes := joinInside("", p)
	if escapes || !fs.ValidPath(clean) {
		return nil, fmt.Errorf("%q is outside the bundle", p)
	}
	return fs.ReadFile(b.FS, clean) // b.FS is a *FileSystem for loaded bundles: confined and capped
}

// Errors counts the diagnostics of Error severity.
func (b *Bundle) Errors() int {
	n := 0
	for _, d := range b.Diagnostics {
		if d.Severity == Error {
			n++
		}
	}
	return n
}
