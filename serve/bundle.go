package serve

import (
	"bytes"
	"fmt"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/okf-tools/okf/internal/escape"
	"github.com/okf-tools/okf/okf"
	"github.com/okf-tools/okf/trust"
)

// doc is one servable file: a concept or an index.md. Its text is the file as written, read once
// at load through the bundle's own reader (confined to the bundle, size-capped), so a read never
// touches the disk again and an edit that breaks the file can fall back to this version.
type doc struct {
	id   string // concept ID, or "<dir>/index" for an index.md
	path string
	uri  string
	text []byte
	body []byte // text after the frontmatter
	// words is body's word index for read (made on the first read; shared by copies of doc).
	words *wordIndex

	concept *okf.Concept // nil for an index
	index   *okf.Index   // nil for a concept
	// row is the trust facts of a concept kept from an earlier snapshot (ownRow); any other
	// concept's are its snapshot's (snapshot.rowOf).
	row    *trust.Concept
	ownRow bool

	title, description, typ string
	tags                    []string // lowercase
	status                  okf.Status
	tier                    okf.Tier

	// stale is set when the file on disk is broken and this is the last good version: where the
	// error is (its message is for stderr: it may quote the broken file).
	stale *okf.Position
}

func (d *doc) isIndex() bool { return d.index != nil }

// snapshot is one loaded version of the bundle. It is never changed after it is built; a reload
// builds a new one.
type snapshot struct {
	bundle *okf.Bundle
	// The trust analysis (package trust, as okf trust does it) is made on the first read or trust
	// call, not at startup: nothing else needs it. It uses the clock as it was at load.
	trustAt   time.Time
	window    time.Duration
	trustOnce sync.Once
	rows      map[string]*trust.Concept
	// texts holds every concept's and index's text by slash path, as read. The bundle is loaded
	// without concept bodies (okf.LoadOptions.SkipBodies: search reads the text, not the parsed
	// Markdown); the trust analysis, which follows body links, parses them from here first.
	texts map[string][]byte
	docs  []*doc // concepts sorted by ID, then indexes sorted by path
	byID  map[string]*doc
	byURI map[string]*doc
	// concepts is the number of concepts (docs[:concepts]); search numbers documents by position.
	concepts int
	idx      *searchIndex
	// dirs maps a folder ("" for the root) to its direct subfolders, sorted.
	dirs map[string][]string
	// errors are the diagnostics of Error severity, for the startup and reload reports.
	errors []okf.Diagnostic

	urisOnce sync.Once
	uris     []string

	// browsed holds each folder's entries once browse has listed them.
	entriesMu sync.Mutex
	browsed   map[string][]Entry
}

// indexID is the resource ID of the index.md in dir: "index" at the root, "dir/index" below. No
// concept can have it: index.md is a reserved name (§8).
func indexID(dir string) string {
	if dir == "" {
		return "index"
	}
	return dir + "/index"
}

// locate finds the bundle of dir as every command finds one (okf.Locate): a path in no bundle is an
// *okf.NotBundleError, and a folder below a bundle's root (or a file) is refused, naming the root,
// as an *okf.PathError. Serving it as a bundle of its own would give its concepts other IDs than
// every other command gives them, and break their links to the rest of the bundle; serving the
// whole bundle instead would hand a model files the user did not name.
func locate(dir string) error {
	ts, _, err := okf.Locate([]string{dir}, okf.LocateOptions{})
	if err != nil {
		return err
	}
	if t := ts[0]; t.Scope() != "" {
		return &okf.PathError{Msg: fmt.Sprintf("%q is inside the OKF bundle %q: okf serve serves a whole bundle, whose IDs and links are from its root; serve %q",
			filepath.ToSlash(dir), filepath.ToSlash(t.Root), filepath.ToSlash(t.Root))}
	}
	return nil
}

// load loads the bundle at o.Dir and keeps the text of every concept and index.md as the loader
// read it (through the bundle's Root: confined, regular files only, size-capped), so no file is
// read twice.
func load(o *Options) (*okf.Bundle, map[string][]byte, error) {
	lo := o.Load
	lo.SkipBodies = true // parsed on the first read or trust call (snapshot.rowOf)
	var mu sync.Mutex
	texts := map[string][]byte{}
	lo.OnFile = func(p string, src []byte) bool {
		if path.Base(p) == "log.md" {
			return false
		}
		// Kept as read when the buffer is about the file's size (the loader read it into new
		// memory after the last file kept), else copied: a buffer grown by a larger file is lent.
		keep := cap(src)-len(src) <= 64+len(src)/16
		text := src
		if !keep {
			text = bytes.Clone(src)
		}
		mu.Lock()
		texts[p] = text
		mu.Unlock()
		return keep
	}
	// Opened as every command opens a bundle (okf.Open): the size limit and ignore list of
	// .okf.yaml apply, so a file okf lint does not load is never handed to a model.
	op, err := okf.Open(o.Dir, lo.MaxFileSize)
	if err != nil {
		return nil, nil, err
	}
	lo.MaxFileSize = 0 // the FileSystem holds the limit now; it stays open, as the bundle reads through it
	b, err := op.Load(lo)
	return b, texts, err
}

// notRead is the report of a file the loader could not read, hence not served.
func notRead(p string, broken map[string]okf.Diagnostic) string {
	why := "it could not be read"
	if d, ok := broken[p]; ok {
		why = d.Message
	}
	return fmt.Sprintf("%s: not served: %s", p, why)
}

// notPlain is the report of a file whose ID is not plain (plainID), hence not served.
func notPlain(p string) string {
	return fmt.Sprintf("%s: not served: its name holds a control, line-break, bidi or invisible character or ##[ (it could not be handed out both exact and as one visible line)", escapeShown(p))
}

// build makes a snapshot of b, whose files' texts are texts (by slash path). prev (nil on the first
// load) supplies the last good version of a file whose new version has errors.
func build(b *okf.Bundle, texts map[string][]byte, opts *Options, prev *snapshot) (*snapshot, []string) {
	s := &snapshot{bundle: b, texts: texts, byID: map[string]*doc{}, byURI: map[string]*doc{}, dirs: map[string][]string{}}
	var notes []string
	broken := map[string]okf.Diagnostic{}
	for _, d := range b.Diagnostics {
		if d.Severity == okf.Error {
			s.errors = append(s.errors, d)
			if _, ok := broken[d.Pos.Path]; !ok {
				broken[d.Pos.Path] = d
			}
		}
	}
	s.trustAt, s.window = opts.now(), opts.ExpiringWithin
	for _, c := range b.Concepts {
		if !plainID(c.ID) {
			notes = append(notes, notPlain(c.Path))
			continue
		}
		d := &doc{id: c.ID, path: c.Path, concept: c}
		if e, bad := broken[c.Path]; bad && prev != nil {
			if old := prev.byID[c.ID]; old != nil && old.concept != nil && (old.stale != nil || prev.cleanFile(old.path)) {
				kept := *old
				kept.row, kept.ownRow = prev.rowOf(old), true
				if old.stale == nil {
					pos := e.Pos
					kept.stale = &pos
				}
				notes = append(notes, fmt.Sprintf("%s: serving the last good version (%s)", c.Path, e.Message))
				s.add(&kept)
				continue
			}
		}
		text, ok := texts[c.Path]
		if !ok {
			notes = append(notes, notRead(c.Path, broken))
			continue
		}
		d.setText(text)
		f := c.Frontmatter
		d.title = strings.TrimSpace(f.Title.Text())
		d.description = strings.TrimSpace(f.Description.Text())
		d.typ = strings.TrimSpace(f.Type.Text())
		for _, t := range f.Tags.Items {
			if tag := strings.ToLower(strings.TrimSpace(t.Text())); tag != "" {
				d.tags = append(d.tags, tag)
			}
		}
		d.status, _ = okf.StatusOf(f.Status)
		d.tier = okf.TierOf(f.Verified)
		s.add(d)
	}
	slices.SortFunc(s.docs, func(a, b *doc) int { return strings.Compare(a.id, b.id) })
	s.concepts = len(s.docs)
	for _, x := range b.Indexes {
		if !plainID(x.Path) {
			notes = append(notes, notPlain(x.Path))
			continue
		}
		text, ok := texts[x.Path]
		if !ok {
			notes = append(notes, notRead(x.Path, broken))
			continue
		}
		d := &doc{id: indexID(x.Dir()), path: x.Path, index: x, title: indexTitle(x.Dir())}
		d.setText(text)
		s.add(d)
	}
	s.docs = s.docs[:len(s.docs):len(s.docs)]

	for _, p := range b.Files() {
		if exists, isDir := b.Stat(p); exists && isDir && plainID(p) {
			parent := path.Dir(p)
			if parent == "." {
				parent = ""
			}
			s.dirs[parent] = append(s.dirs[parent], p)
		}
	}

	var cut []string
	s.idx, cut = indexDocs(s.docs[:s.concepts], s.anchors())
	return s, append(notes, cut...)
}

// indexDocs builds the search index of docs, document i being docs[i], whose anchor text is
// anchors[i] (nil: none). A large bundle is read by two goroutines, each half into a builder of
// its own, merged after (the second half's terms renumbered, its documents shifted): the build
// takes about half the wall time; the CPU time is the same. The notes say what the caps
// (indexCaps) left out, if anything.
func indexDocs(docs []*doc, anchors [][]byte) (*searchIndex, []string) {
	if anchors == nil {
		anchors = make([][]byte, len(docs))
	}
	// The pairs first, then the words: the two builders' counts are never held at once, and the
	// pairs' (a few per concept) are garbage before the words' (hundreds) are counted, not after,
	// when they would pile up on the words' own garbage before the collector runs.
	pb := inHalves(docs, anchors, (*indexBuilder).addPairs)
	pairCut := pb.cut
	pair := pb.build()
	wb := inHalves(docs, anchors, (*indexBuilder).addDocs)
	wordCut := wb.cut
	si := wb.buildSearch()
	si.pair = pair
	return si, append(cutNotes("words", wordCut), cutNotes("pairs of adjacent words", pairCut)...)
}

// cutNotes says what the caps left out of the index of what (words, pairs).
func cutNotes(what string, c cutCounts) []string {
	var notes []string
	if c.docs > 0 {
		notes = append(notes, fmt.Sprintf("search: concepts with more than %d distinct %s: %d; the index keeps the first %d of each (read still gives them whole)", caps.docTerms, what, c.docs, caps.docTerms))
	}
	if c.terms {
		notes = append(notes, fmt.Sprintf("search: the bundle has more than %d distinct %s; the index keeps %d of them (read still gives every concept whole)", caps.terms, what, caps.terms))
	}
	if c.postings {
		notes = append(notes, fmt.Sprintf("search: the index of %s is full (%d postings); the concepts read after it filled are not searchable by them (read still gives them whole)", what, caps.postings))
	}
	return notes
}

// inHalves reads docs with add into one builder; a large bundle by two goroutines, each half into
// a builder of its own, merged after (the second half's terms renumbered, its documents shifted).
func inHalves(docs []*doc, anchors [][]byte, add func(*indexBuilder, []*doc, [][]byte)) *indexBuilder {
	var a indexBuilder
	if len(docs) < parallelIndex {
		add(&a, docs, anchors)
		return &a
	}
	half := len(docs) / 2
	// Each half may hold half of what the index may: their union holds no more than the index.
	c := caps
	c.terms, c.postings = max(1, c.terms/2), max(1, c.postings/2)
	a.caps = c
	b := indexBuilder{caps: c}
	done := make(chan struct{})
	go func() {
		defer close(done)
		add(&b, docs[half:], anchors[half:])
	}()
	add(&a, docs[:half], anchors[:half])
	<-done
	a.merge(&b)
	return &a
}

// parallelIndex is how many documents make indexDocs use two goroutines (a variable for tests).
var parallelIndex = 1000

// fieldTexts returns the text of each search field of d, whose anchor text is anchor: tags
// joined by spaces (as separate words they are counted the same), headings as headingText finds
// them, the body without its citation markers and link destinations (bodyWords), the rest of the
// frontmatter as metaText gives it. A body without them is d's own; one with them is written into
// buf, which the caller may reuse once it has read the fields (nil: a new one).
func fieldTexts(d *doc, anchor []byte, buf *[]byte) [numFields][]byte {
	f := shortFields(d, anchor)
	if buf == nil {
		buf = new([]byte)
	}
	f[fieldBody] = bodyWords((*buf)[:0], d.body)
	if len(f[fieldBody]) > 0 && &f[fieldBody][0] != &d.body[0] {
		*buf = f[fieldBody]
	}
	f[fieldMeta] = metaText(d)
	return f
}

// The short fields' caps: what the text of each may give the index, in bytes. Each is cut at a
// word's end. A real concept is far below them (the largest of 5,677 real ones: a 123-byte title,
// a 383-byte description, 75 bytes of tags, 5.5 KiB of headings): beyond them a field is no longer
// a name, and one file of them (up to the file size cap) would otherwise all be short-field text,
// indexed as words and as pairs.
const (
	maxShort    = 4 << 10  // the title, the description, the tags (joined)
	maxHeadings = 64 << 10 // the headings of one concept, in all
)

// shortFields returns fieldTexts but the body and the frontmatter's other keys.
func shortFields(d *doc, anchor []byte) [numFields][]byte {
	var f [numFields][]byte
	f[fieldTitle] = []byte(clipWord(d.title, maxShort))
	f[fieldHeadings] = headingText(d.body, maxHeadings)
	f[fieldDescription] = []byte(clipWord(d.description, maxShort))
	f[fieldTags] = []byte(clipWord(strings.Join(d.tags, " "), maxShort))
	f[fieldAnchor] = anchor
	f[fieldPath] = []byte(d.id)
	return f
}

// addDocs reads docs, in order, as the next documents.
func (ib *indexBuilder) addDocs(docs []*doc, anchors [][]byte) {
	for i, d := range docs {
		var lens [numFields]int32
		for f, text := range fieldTexts(d, anchors[i], &ib.bodyBuf) {
			lens[f] = ib.addField(f, text)
		}
		ib.endDoc(lens)
	}
}

// addPairs reads the pairs of adjacent words of docs' short fields (pairFields), in order, as the
// next documents.
func (ib *indexBuilder) addPairs(docs []*doc, anchors [][]byte) {
	c := stems{}
	for i, d := range docs {
		var lens [numFields]int32
		texts := shortFields(d, anchors[i])
		for _, f := range pairFields {
			lens[f] = eachPair(texts[f], c, func(p []byte) { ib.countWord(f, p) })
		}
		ib.endDoc(lens)
	}
}

// clipWord returns s cut to at most n bytes, at the end of a word (or of a character, in a word of
// more than n bytes).
func clipWord(s string, n int) string {
	if len(s) <= n {
		return s
	}
	if n <= 0 {
		return ""
	}
	cut := n
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	for i := cut; i > 0; i-- {
		if c := s[i-1]; c < utf8.RuneSelf && wordByte[c] == 0 {
			return s[:i]
		}
	}
	return s[:cut]
}

// headingText returns the text of body's ATX headings (`# …` to `###### …`, outside fenced code),
// one a line, at most most bytes of it (clipWord: the headings past it are left out).
func headingText(body []byte, most int) []byte {
	var out []byte
	fence := false
	for rest := body; len(rest) > 0; {
		line := rest
		if i := bytes.IndexByte(rest, '\n'); i >= 0 {
			line, rest = rest[:i], rest[i+1:]
		} else {
			rest = nil
		}
		t := bytes.TrimLeft(line, " ")
		if len(line)-len(t) > 3 {
			continue
		}
		if bytes.HasPrefix(t, []byte("```")) || bytes.HasPrefix(t, []byte("~~~")) {
			fence = !fence
			continue
		}
		if fence || len(t) == 0 || t[0] != '#' {
			continue
		}
		n := 0
		for n < len(t) && t[n] == '#' {
			n++
		}
		if n > 6 || (n < len(t) && t[n] != ' ' && t[n] != '\t') {
			continue
		}
		h := bytes.Trim(t[n:], " \t#")
		if len(out)+len(h)+1 > most {
			if h := clipWord(string(h), most-len(out)-1); h != "" {
				out = append(append(out, h...), '\n')
			}
			return out
		}
		out = append(out, h...)
		out = append(out, '\n')
	}
	return out
}

// maxAnchor bounds one concept's anchor text: thousands of links to one concept add nothing a
// few hundred words do not, and the text of the whole bundle could otherwise land on one concept.
const maxAnchor = 4 << 10

// anchors returns the anchor text of each concept (docs[:concepts]): the title and description of
// every index entry that lists it, and the text of every Markdown link to it from another concept,
// each but where it is the concept's own title or description.
func (s *snapshot) anchors() [][]byte {
	pos := make(map[string]int, s.concepts)
	for i, d := range s.docs[:s.concepts] {
		pos[d.path] = i
	}
	out := make([][]byte, s.concepts)
	add := func(from, target string, text ...string) {
		res := s.bundle.ResolveLink(from, target)
		if res.Kind != okf.RefLocal || !res.Exists || res.Escapes {
			return
		}
		i, ok := pos[res.Target]
		if !ok || s.docs[i].path == from {
			return
		}
		for _, t := range text {
			// An index entry mostly repeats the concept's own title and description, fields of
			// their own: counted again here they would weigh twice.
			if t = strings.TrimSpace(t); strings.EqualFold(t, s.docs[i].title) || strings.EqualFold(t, s.docs[i].description) {
				continue
			}
			if t != "" && len(out[i])+len(t)+1 <= maxAnchor {
				out[i] = append(append(out[i], t...), '\n')
			}
		}
	}
	for _, d := range s.docs[s.concepts:] {
		for _, sec := range d.index.Sections {
			for _, ie := range sec.Entries {
				add(d.path, ie.Target, ie.Title, ie.Description)
			}
		}
	}
	for _, d := range s.docs[:s.concepts] {
		markdownLinks(d.body, func(text, target string) { add(d.path, target, text) })
	}
	return out
}

// markdownLinks calls each for every inline link `[text](target)` of body whose text is on one
// line and at most 300 bytes (the target up to its first space or closing parenthesis, at most 300
// bytes). It is one pass over body, each byte looked at a bounded number of times whatever the
// text (bodies are not parsed at load): a link in code counts too.
func markdownLinks(body []byte, each func(text, target string)) {
	const most = 300
	open := -1 // the last '[' on this line, or -1
	for i := 0; i < len(body); i++ {
		switch body[i] {
		case '\n':
			open = -1
		case '[':
			open = i
		case ']':
			if open < 0 || i+1 >= len(body) || body[i+1] != '(' || i-open-1 > most {
				continue
			}
			text := body[open+1 : i]
			start := i + 2
			end := start
			for end < len(body) && end-start <= most && body[end] != ')' && body[end] != ' ' && body[end] != '\n' {
				end++
			}
			open = -1
			if end > start && end < len(body) && end-start <= most {
				each(string(text), string(body[start:end]))
			}
			i = end - 1
		}
	}
}

// rowOf returns the trust facts of concept d of this snapshot (nil for an index), making the
// snapshot's trust analysis the first time.
func (s *snapshot) rowOf(d *doc) *trust.Concept {
	if d.ownRow || d.isIndex() {
		return d.row
	}
	s.trustOnce.Do(func() {
		// The bodies the load skipped, parsed exactly as the loader parses them (okf.ParseConcept),
		// one file at a time. Nothing else in serve reads a concept's Body, and the Do orders these
		// writes before any later reader.
		for _, c := range s.bundle.Concepts {
			if text, ok := s.texts[c.Path]; ok {
				if pc, _ := okf.ParseConcept(c.Path, text); pc != nil {
					c.Body = pc.Body
				}
			}
		}
		r := trust.Build(s.bundle, trust.Options{Now: s.trustAt, ExpiringWithin: s.window})
		s.rows = make(map[string]*trust.Concept, len(r.Concepts))
		for _, c := range r.Concepts {
			s.rows[c.ID] = c
		}
	})
	return s.rows[d.id]
}

// cleanFile reports whether the file at p loaded without an error in this snapshot.
func (s *snapshot) cleanFile(p string) bool {
	for _, e := range s.errors {
		if e.Pos.Path == p {
			return false
		}
	}
	return true
}

func (s *snapshot) add(d *doc) {
	d.uri = uriOf(d.id)
	s.docs = append(s.docs, d)
	s.byID[d.id] = d
	s.byURI[d.uri] = d
}

func (d *doc) setText(text []byte) {
	d.text = text
	d.body = withoutGenMarkers(okf.SplitFrontmatter(text).Body)
	d.words = &wordIndex{}
}

// withoutGenMarkers returns body without the lines of okf gen's block markers (`<!-- okf-gen:begin
// sha256:… (okf gen updates this block …) -->`, `<!-- okf-gen:end -->`): they are for the people who
// edit the file, and would open every read of a generated concept with 30 tokens and put their
// words in every such concept's search terms. Resources give the file as written. A body without
// them is returned as it is, not copied.
func withoutGenMarkers(body []byte) []byte {
	if !bytes.Contains(body, []byte("<!-- okf-gen:")) {
		return body
	}
	out := make([]byte, 0, len(body))
	for rest := body; len(rest) > 0; {
		line := rest
		if i := bytes.IndexByte(rest, '\n'); i >= 0 {
			line, rest = rest[:i+1], rest[i+1:]
		} else {
			rest = nil
		}
		t := bytes.TrimSpace(line)
		if (bytes.HasPrefix(t, []byte("<!-- okf-gen:begin")) || bytes.Equal(t, []byte("<!-- okf-gen:end -->"))) && bytes.HasSuffix(t, []byte("-->")) {
			continue
		}
		out = append(out, line...)
	}
	return bytes.TrimLeft(out, "\r\n")
}

// Options configures a Server.
type Options struct {
	// Dir is the bundle folder.
	Dir string
	// Load tunes the loader (ignore patterns, workers).
	Load okf.LoadOptions
	// Now is the clock for staleness (D11); nil means time.Now. okf serve passes a fixed clock for
	// --now / $OKF_NOW.
	Now func() time.Time
	// ExpiringWithin is the "expiring soon" window (D11); 0 turns it off.
	ExpiringWithin time.Duration
	// PageSize is how many resources one resources/list page holds (0: 500).
	PageSize int
	// Version is the server version reported to clients.
	Version string
	// Report receives what the server has to say outside the protocol: load errors, reloads,
	// a file served from its last good version. Lines are already escaped. nil discards them.
	Report func(line string)
}

func (o *Options) now() time.Time {
	if o.Now != nil {
		return o.Now()
	}
	return time.Now()
}

func (o *Options) report(format string, a ...any) {
	if o.Report != nil {
		o.Report(escape.Control(fmt.Sprintf(format, a...)))
	}
}
