package okf

import (
	"bytes"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/okf-tools/okf/okf/internal/fastmd"
	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/text"
)

// Body is what later commands need from a Markdown body, with file positions. The goldmark AST is
// walked once and dropped, so a loaded bundle holds these small slices and no syntax tree.
type Body struct {
	Links        []Link
	Headings     []Heading
	FootnoteRefs []FootnoteRef
	FootnoteDefs []FootnoteDef
	CodeBlocks   []CodeBlock
	// Citations are the items of a legacy v0.1 `# Citations` list (§13.1).
	Citations []Citation
	// Comments are HTML comments (block or inline), where inline lint directives live.
	Comments []Comment
	// Blank is true when the body holds nothing but whitespace (§4.2: a concept with no content).
	Blank bool
}

// Link is a Markdown link or image in the body.
type Link struct {
	Target string
	Text   string
	Image  bool
	Pos    Position
}

// Heading is an ATX or setext heading.
type Heading struct {
	Level int
	Text  string
	Pos   Position
}

// FootnoteRef is a `[^label]` reference in the text. Defined is false when no definition with that
// label exists in the file.
type FootnoteRef struct {
	Label   string
	Defined bool
	Pos     Position
}

// FootnoteDef is a `[^label]: text` definition.
type FootnoteDef struct {
	Label string
	Text  string
	Pos   Position
}

// CodeBlock is a fenced or indented code block with the heading it sits under, so `# Computation`
// fences (§10.3) can be found.
type CodeBlock struct {
	Fenced bool
	// Info is the fence's info string ("sql"); empty for indented blocks.
	Info    string
	Content string
	// Section is the text of the nearest heading above the block, and SectionLevel its level
	// (0 when there is none).
	Section      string
	SectionLevel int
	// Sections is the chain of enclosing headings, outermost first ("Computation" > "Notes").
	Sections []string
	Pos      Position
}

// Citation is one item of a legacy `# Citations` list.
type Citation struct {
	Text string
	// Target is the item's first link target, or the item text when it is a bare URL.
	Target string
	Pos    Position
}

// Comment is an HTML comment, without its `<!--` and `-->`.
type Comment struct {
	Text string
	Pos  Position
	// EndLine is the line of the comment's closing `-->` (Pos.Line for a one-line comment).
	EndLine int
}

// markdown parses bodies with CommonMark's parsers plus footnotes (so that `[^x]: …` definitions
// are not read as link reference definitions). Tables, strikethrough and task lists are left out:
// they add no link, heading or code block, and a table's links are still found in its text. It is
// built on first use: most bodies take the fast path (okf/internal/fastmd) and never need it, and
// building goldmark's parser set at init cost every process.
var markdown = sync.OnceValue(func() goldmark.Markdown { return goldmark.New(goldmark.WithExtensions(footnotes)) })

// bodyParser walks one body; offsets from goldmark are relative to the body and are shifted by
// offset into the file before they become positions.
type bodyParser struct {
	path   string
	src    []byte // the body
	offset int
	lines  *lineIndex // of the whole file
	// scratch, when not nil, is the memory of the loader worker's fast path (bodyScratch); nil,
	// the fast path takes one from scratchPool.
	scratch *bodyScratch
	// why and whyIn say why the fast path refused the body and in what block (see refuse).
	why, whyIn string
}

func (p *bodyParser) pos(off int) Position {
	l, c := p.lines.pos(off + p.offset)
	return Position{Path: p.path, Line: clamp32(l), Col: clamp32(c)}
}

// inlineText concatenates the text of an inline subtree.
// citationMarkRE is the number that opens a line of the numbered form of v0.1 citations
// (`[1] [Title](url)`).
var citationMarkRE = &lazyRegexp{expr: `^\[\d{1,9}\][ \t]*`}

// citationLines reads a paragraph of a Citations section written in the numbered form of the v0.1
// specification, one citation a line: `[1] [Title](url)`, `[2] https://…`, `<https://…>`, or a line
// that is one link or URL. Each line becomes a citation (its text without the number, its first
// link or URL as target); a paragraph any of whose lines is not such a line is prose, and gives
// none.
func (p *bodyParser) citationLines(para *ast.Paragraph) []Citation {
	var out []Citation
	var line []ast.Node
	ok := true
	flush := func() {
		if len(line) == 0 {
			return
		}
		var t strings.Builder
		target := ""
		for _, n := range line {
			t.WriteString(inlineText(n, p.src))
			_ = ast.Walk(n, func(c ast.Node, entering bool) (ast.WalkStatus, error) {
				if entering && target == "" {
					switch l := c.(type) {
					case *ast.Link:
						target = string(l.Destination)
					case *ast.AutoLink:
						target = string(l.URL(p.src))
					}
				}
				return ast.WalkContinue, nil
			})
			if tx, isText := n.(*ast.Text); isText && (tx.SoftLineBreak() || tx.HardLineBreak()) {
				t.WriteByte(' ')
			}
		}
		text := strings.TrimSpace(t.String())
		numbered := citationMarkRE.get().MatchString(text)
		text = strings.TrimSpace(citationMarkRE.get().ReplaceAllString(text, ""))
		if target == "" && IsURL(text) && !strings.ContainsAny(text, " \t") {
			target = text
		}
		_, firstIsLink := line[0].(*ast.Link)
		_, firstIsAuto := line[0].(*ast.AutoLink)
		if target == "" || !(numbered || firstIsLink || firstIsAuto || target == text) {
			ok = false
		}
		out = append(out, Citation{Text: text, Target: target, Pos: p.pos(lineStartOf(line[0], p.src))})
		line = line[:0]
	}
	for c := para.FirstChild(); c != nil; c = c.NextSibling() {
		line = append(line, c)
		if tx, isText := c.(*ast.Text); isText && (tx.SoftLineBreak() || tx.HardLineBreak()) {
			flush()
		}
	}
	flush()
	if !ok {
		return nil
	}
	return out
}

// lineStartOf returns the offset of the start of the line an inline node begins on.
func lineStartOf(n ast.Node, src []byte) int {
	off := n.Pos()
	if off < 0 || off > len(src) {
		return 0
	}
	return bytes.LastIndexByte(src[:off], '\n') + 1
}

func inlineText(n ast.Node, src []byte) string {
	var b strings.Builder
	_ = ast.Walk(n, func(c ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch t := c.(type) {
		case *ast.Text:
			b.Write(t.Segment.Value(src))
			if t.SoftLineBreak() || t.HardLineBreak() {
				b.WriteByte(' ')
			}
		case *ast.String:
			b.Write(t.Value)
		case *ast.AutoLink:
			b.Write(t.URL(src))
		}
		return ast.WalkContinue, nil
	})
	return strings.TrimSpace(b.String())
}

func blockText(n ast.Node, src []byte) string {
	var b bytes.Buffer
	lines := n.Lines()
	for i := 0; i < lines.Len(); i++ {
		seg := lines.At(i)
		b.Write(seg.Value(src))
	}
	return b.String()
}

// ParseBody extracts links, headings, footnotes, code blocks, citations and comments from a body
// that starts at byte offset bodyOffset of the file whose full text is file. The body is read as the
// loader reads it: shapes of text the Markdown parser would spend superlinear time on are left out
// first (tame.go), so a caller parsing untrusted text outside a load (okf lint --fix re-reads an
// index it is about to change) is bounded as a load is: 200,000 "[a](" took goldmark 9 minutes.
func ParseBody(path string, file []byte, bodyOffset int) *Body {
	file, _ = tameBody(file, bodyOffset)
	return parseBody(path, file, bodyOffset, newLineIndex(file))
}

func parseBody(path string, file []byte, bodyOffset int, li *lineIndex) *Body {
	return parsedBody(path, file, bodyOffset, li, nil)
}

// parseBodyIn is parseBody in a loader worker, whose fast path builds its lists in bs.
func parseBodyIn(path string, file []byte, bodyOffset int, li *lineIndex, bs *bodyScratch) *Body {
	p := &bodyParser{path: path, src: file[bodyOffset:], offset: bodyOffset, lines: li, scratch: bs}
	if b, ok := p.fastBody(); ok {
		return b
	}
	return p.treeBody(markdown().Parser().Parse(text.NewReader(p.src)))
}

// parsedBody is parseBody on the goldmark tree doc of the body when the caller has it already
// (an index reads its entries from the same tree), nil to parse it here: by the fast path
// (okf/internal/fastmd) when the body is in its subset, else by goldmark. The tree is only read.
func parsedBody(path string, file []byte, bodyOffset int, li *lineIndex, doc ast.Node) *Body {
	p := &bodyParser{path: path, src: file[bodyOffset:], offset: bodyOffset, lines: li}
	if doc == nil {
		if b, ok := p.fastBody(); ok {
			return b
		}
		doc = markdown().Parser().Parse(text.NewReader(p.src))
	}
	return p.treeBody(doc)
}

// treeBody walks the goldmark tree doc of p.src.
func (p *bodyParser) treeBody(doc ast.Node) *Body {
	b := &Body{Blank: len(bytes.TrimSpace(p.src)) == 0}
	var sections []Heading // enclosing heading chain
	var codeRanges [][2]int
	inCitations := 0 // level of the Citations heading, 0 when outside
	_ = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch t := n.(type) {
		case *ast.Heading:
			h := Heading{Level: t.Level, Text: inlineText(t, p.src), Pos: p.pos(t.Pos())}
			b.Headings = append(b.Headings, h)
			for len(sections) > 0 && sections[len(sections)-1].Level >= t.Level {
				sections = sections[:len(sections)-1]
			}
			sections = append(sections, h)
			if inCitations > 0 && t.Level <= inCitations {
				inCitations = 0
			}
			if strings.EqualFold(h.Text, "citations") {
				inCitations = t.Level
			}
			// Its inline content is walked too: a link in a heading (an index's `## [Orders](orders.md)`)
			// is a link like any other.
			return ast.WalkContinue, nil
		case *ast.Link:
			b.Links = append(b.Links, Link{Target: string(t.Destination), Text: inlineText(t, p.src), Pos: p.pos(t.Pos())})
		case *ast.Image:
			b.Links = append(b.Links, Link{Target: string(t.Destination), Text: inlineText(t, p.src), Image: true, Pos: p.pos(t.Pos())})
		case *ast.FencedCodeBlock, *ast.CodeBlock:
			cb := CodeBlock{Content: blockText(n, p.src), Pos: p.pos(n.Pos())}
			if f, ok := n.(*ast.FencedCodeBlock); ok {
				cb.Fenced = true
				if f.Info != nil {
					cb.Info = strings.TrimSpace(string(f.Info.Segment.Value(p.src)))
				}
			}
			if len(sections) > 0 {
				last := sections[len(sections)-1]
				cb.Section, cb.SectionLevel = last.Text, last.Level
				for _, s := range sections {
					cb.Sections = append(cb.Sections, s.Text)
				}
			}
			start := n.Pos()
			end := start + 1
			if l := n.Lines(); l.Len() > 0 {
				end = l.At(l.Len() - 1).Stop
			}
			codeRanges = append(codeRanges, [2]int{start, end})
			b.CodeBlocks = append(b.CodeBlocks, cb)
			return ast.WalkSkipChildren, nil
		case *ast.HTMLBlock:
			segs := t.Lines()
			if t.HasClosure() {
				// A multi-line comment's closing line is kept apart from the block's lines.
				all := text.NewSegments()
				all.AppendAll(segs.Sliced(0, segs.Len()))
				all.Append(t.ClosureLine)
				segs = all
			}
			p.comments(b, segs)
		case *ast.RawHTML:
			p.comments(b, t.Segments)
		case *ast.Paragraph:
			if inCitations > 0 && t.Parent() == doc {
				b.Citations = append(b.Citations, p.citationLines(t)...)
			}
		case *ast.ListItem:
			if inCitations > 0 && t.Parent() != nil && t.Parent().Parent() == doc {
				c := Citation{Text: inlineText(t, p.src), Pos: p.pos(t.Pos())}
				_ = ast.Walk(t, func(c2 ast.Node, entering bool) (ast.WalkStatus, error) {
					if l, ok := c2.(*ast.Link); ok && entering && c.Target == "" {
						c.Target = string(l.Destination)
					}
					if l, ok := c2.(*ast.AutoLink); ok && entering && c.Target == "" {
						c.Target = string(l.URL(p.src))
					}
					return ast.WalkContinue, nil
				})
				if c.Target == "" && IsURL(c.Text) && !strings.ContainsAny(c.Text, " \t") {
					c.Target = c.Text
				}
				b.Citations = append(b.Citations, c)
			}
		}
		return ast.WalkContinue, nil
	})
	p.footnotes(b, codeRanges)
	b.clipAll()
	return b
}

// clipAll clips every list of b (both readers, the fast path and the tree walk, end with it, so
// their bodies stay deeply equal).
func (b *Body) clipAll() {
	b.Links = clip(b.Links)
	b.Headings = clip(b.Headings)
	b.CodeBlocks = clip(b.CodeBlocks)
	b.FootnoteRefs = clip(b.FootnoteRefs)
	b.FootnoteDefs = clip(b.FootnoteDefs)
	b.Citations = clip(b.Citations)
	b.Comments = clip(b.Comments)
}

// bodyScratch is the memory a loader worker's Markdown fast path reuses from body to body: the
// lists fastmd builds grow there, and fastRead copies out only their final contents, at exactly
// their length (what clip would make of them), converting each element to the model's type on the
// way, instead of each body growing its own by doubling.
type bodyScratch = fastmd.Scratch

// scratchPool lends a scratch to the fast path where the caller has none (ParseBody): the copy
// out of a scratch is the only allocation of each list, as in a loader worker.
var scratchPool = sync.Pool{New: func() any { return new(bodyScratch) }}

// bodyScratch returns the worker's body scratch, nil without a worker.
func (s *scratch) bodyScratch() *bodyScratch {
	if s == nil {
		return nil
	}
	return &s.body
}

// LineCol is pos for the fast path (fastmd.Lines).
func (li *lineIndex) LineCol(off int) (line, col int32) {
	l, c := li.pos(off)
	return clamp32(l), clamp32(c)
}

// thematicBreak reports whether a line of break and underline characters is a thematic break, as
// the fast path reads it.
func thematicBreak(line []byte) bool { return fastmd.ThematicBreak(line) }

// fastBody returns the Body of p.src read by the fast path, or ok false when the body is outside
// its subset (p.why and p.whyIn say why).
func (p *bodyParser) fastBody() (*Body, bool) {
	b, _, ok := p.fastRead(false)
	return b, ok
}

// fastRead is fastBody; with index, it also reads the sections and entries of an index. The lists
// fastmd read into the scratch are copied out here, each once at its length, into the model's
// types (fastmd's mirror them field for field: TestFastmdMirrors), and the footnote scan, shared
// with goldmark's reading, is run on the body.
func (p *bodyParser) fastRead(index bool) (*Body, []IndexSection, bool) {
	s := p.scratch
	if s == nil {
		s = scratchPool.Get().(*bodyScratch)
		defer scratchPool.Put(s)
	}
	r, why, whyIn, ok := fastmd.Read(p.src, p.offset, p.lines, s, index)
	if !ok {
		p.why, p.whyIn = why, whyIn
		return nil, nil, false
	}
	b := &Body{
		Links:      p.fastLinks(r.Links),
		Headings:   p.fastHeadings(r.Headings),
		CodeBlocks: p.fastCode(r.CodeBlocks),
		Citations:  p.fastCitations(r.Citations),
		Comments:   p.fastComments(r.Comments),
		Blank:      r.Blank,
	}
	p.footnotes(b, r.CodeRanges)
	var sections []IndexSection
	if index {
		sections = p.fastSections(r.Sections)
	}
	s.Done()
	b.clipAll()
	return b, sections, true
}

// at is the position of fastmd's pos in p's file; no position (an index's section before any
// heading has none) is none here too.
func (p *bodyParser) at(pos fastmd.Pos) Position {
	if pos == (fastmd.Pos{}) {
		return Position{}
	}
	return Position{Path: p.path, Line: pos.Line, Col: pos.Col}
}

// The conversions below copy a list of fastmd's out of the scratch at exactly its length (nil when
// empty, as an unused list is), an element of the model's type for each of fastmd's.

func (p *bodyParser) fastLinks(in []fastmd.Link) []Link {
	if len(in) == 0 {
		return nil
	}
	out := make([]Link, len(in))
	for i, l := range in {
		out[i] = Link{Target: l.Target, Text: l.Text, Image: l.Image, Pos: p.at(l.Pos)}
	}
	return out
}

func (p *bodyParser) fastHeadings(in []fastmd.Heading) []Heading {
	if len(in) == 0 {
		return nil
	}
	out := make([]Heading, len(in))
	for i, h := range in {
		out[i] = Heading{Level: h.Level, Text: h.Text, Pos: p.at(h.Pos)}
	}
	return out
}

func (p *bodyParser) fastCode(in []fastmd.CodeBlock) []CodeBlock {
	if len(in) == 0 {
		return nil
	}
	out := make([]CodeBlock, len(in))
	for i, c := range in {
		out[i] = CodeBlock{Fenced: c.Fenced, Info: c.Info, Content: c.Content, Section: c.Section, SectionLevel: c.SectionLevel, Sections: c.Sections, Pos: p.at(c.Pos)}
	}
	return out
}

// fastCitations is also where an item without a link whose text is a bare URL gets it as target,
// as treeBody's items do.
func (p *bodyParser) fastCitations(in []fastmd.Citation) []Citation {
	if len(in) == 0 {
		return nil
	}
	out := make([]Citation, len(in))
	for i, c := range in {
		out[i] = Citation{Text: c.Text, Target: c.Target, Pos: p.at(c.Pos)}
		if c.Target == "" && IsURL(c.Text) && !strings.ContainsAny(c.Text, " \t") {
			out[i].Target = c.Text
		}
	}
	return out
}

func (p *bodyParser) fastComments(in []fastmd.Comment) []Comment {
	if len(in) == 0 {
		return nil
	}
	out := make([]Comment, len(in))
	for i, c := range in {
		out[i] = Comment{Text: c.Text, Pos: p.at(c.Pos), EndLine: c.EndLine}
	}
	return out
}

func (p *bodyParser) fastSections(in []fastmd.IndexSection) []IndexSection {
	if len(in) == 0 {
		return nil
	}
	out := make([]IndexSection, len(in))
	for i, x := range in {
		out[i] = IndexSection{Heading: x.Heading, Level: x.Level, Pos: p.at(x.Pos), Entries: p.fastEntries(x.Entries)}
	}
	return out
}

func (p *bodyParser) fastEntries(in []fastmd.IndexEntry) []IndexEntry {
	if len(in) == 0 {
		return nil
	}
	out := make([]IndexEntry, len(in))
	for i, e := range in {
		out[i] = IndexEntry{Title: e.Title, Target: e.Target, Description: e.Description, Pos: p.at(e.Pos)}
	}
	return out
}

// clip returns s in a slice of exactly its length: append's spare capacity, times every concept of
// a large bundle, is memory held for nothing.
func clip[T any](s []T) []T {
	if len(s) == cap(s) {
		return s
	}
	out := make([]T, len(s))
	copy(out, s)
	return out
}

// commentRE is fastmd.CommentExpr (TestFastmdMirrors): both readings find the same comments.
var commentRE = &lazyRegexp{expr: `(?s)<!--(.*?)-->`}

// comments records the HTML comments in the text of segs. A comment's position is taken from the
// segment it starts in, so it is right even where the segments are not contiguous in the file
// (a block inside a list or quote has its indentation cut).
func (p *bodyParser) comments(b *Body, segs *text.Segments) {
	var raw strings.Builder
	starts := make([]int, segs.Len()) // offset in raw where each segment begins
	for i := 0; i < segs.Len(); i++ {
		starts[i] = raw.Len()
		seg := segs.At(i)
		raw.Write(seg.Value(p.src))
	}
	s := raw.String()
	if !strings.Contains(s, "<!--") {
		return
	}
	for _, m := range commentRE.get().FindAllStringSubmatchIndex(s, -1) {
		i := sort.SearchInts(starts, m[0]+1) - 1
		off := segs.At(i).Start + m[0] - starts[i]
		j := sort.SearchInts(starts, m[1]) - 1 // the segment of the comment's last byte, m[1]-1
		end := segs.At(j).Start + m[1] - 1 - starts[j]
		b.Comments = append(b.Comments, Comment{Text: strings.TrimSpace(s[m[2]:m[3]]), Pos: p.pos(off), EndLine: int(p.pos(end).Line)})
	}
}

// The footnote scan reads each line holding "[^" with three small scanners, each the regular
// expression named in its comment read by hand (TestFootnoteScanners compares them on random
// lines): on a bundle whose every file cites a footnote, the expressions were a third of the
// fast path's time.

// footnoteDefAt reads s as a footnote definition, `^ {0,3}\[\^([^\]\s]+)\]:[ \t]*(.*)$`: it returns
// the bounds of the label and the start of the text, or ok false.
func footnoteDefAt(s string) (ls, le, ts int, ok bool) {
	i := 0
	for i < len(s) && i < 3 && s[i] == ' ' {
		i++
	}
	if !strings.HasPrefix(s[i:], "[^") {
		return 0, 0, 0, false
	}
	ls = i + 2
	le = ls
	for le < len(s) && footnoteLabelByte(s[le]) {
		le++
	}
	if le == ls || !strings.HasPrefix(s[le:], "]:") {
		return 0, 0, 0, false
	}
	ts = le + 2
	for ts < len(s) && (s[ts] == ' ' || s[ts] == '\t') {
		ts++
	}
	return ls, le, ts, true
}

// footnoteLabelByte reports whether c may stand in a footnote label as the scan reads it: `[^\]\s]`
// (RE2's \s is ASCII: tab, newline, form feed, carriage return and space; any other byte, or rune,
// may).
func footnoteLabelByte(c byte) bool {
	return c != ']' && c != ' ' && c != '\t' && c != '\n' && c != '\f' && c != '\r'
}

// nextFootnoteRef finds the first `\[\^([^\]\s]+)\]` in s at or after from, and returns its start
// and its label's bounds (the match ends after le), or start -1.
func nextFootnoteRef(s string, from int) (start, ls, le int) {
	for from < len(s) {
		k := strings.Index(s[from:], "[^")
		if k < 0 {
			break
		}
		start = from + k
		le = start + 2
		for le < len(s) && footnoteLabelByte(s[le]) {
			le++
		}
		if le > start+2 && le < len(s) && s[le] == ']' {
			return start, start + 2, le
		}
		from = start + 1
	}
	return -1, 0, 0
}

// blankTickRuns replaces what "`+[^`]*`+" matches in s (leftmost first) with as many spaces: a run of
// backticks through the next run, or when no backtick follows, a run of two or more alone (the
// expression's first `+ gives its last backtick to the second).
func blankTickRuns(s string) string {
	b := []byte(s)
	for i := 0; i < len(b); {
		k := strings.IndexByte(s[i:], '`')
		if k < 0 {
			break
		}
		i += k
		j := i
		for j < len(b) && b[j] == '`' {
			j++
		}
		end := -1
		if n := strings.IndexByte(s[j:], '`'); n >= 0 {
			end = j + n
			for end < len(b) && b[end] == '`' {
				end++
			}
		} else if j-i >= 2 {
			end = j
		}
		if end < 0 {
			i = j
			continue
		}
		for x := i; x < end; x++ {
			b[x] = ' '
		}
		i = end
	}
	return string(b)
}

// footnotes finds footnote definitions and references line by line outside code blocks. goldmark
// drops references whose label has no definition and does not keep a reference's label, and both
// matter here: a label is the join key into `sources` (§5.1, D16). Only lines holding "[^" are
// looked at closely, which keeps this cheap on long bodies.
func (p *bodyParser) footnotes(b *Body, code [][2]int) {
	if !bytes.Contains(p.src, []byte("[^")) {
		return
	}
	// Bound: code ranges do not overlap; sorted (goldmark walks footnote definitions, and the code
	// in them, last) and met by lines in order, one index moves forward through them: r log r plus
	// lines, where a scan of every range per line was quadratic on a body alternating code blocks
	// and references.
	code = slices.Clone(code)
	slices.SortFunc(code, func(a, b [2]int) int { return a[0] - b[0] })
	ci := 0
	// inCode reports whether the line [off, end) is in a code block; an indented block's range starts
	// after its first line's indentation, so the line need only overlap it.
	inCode := func(off, end int) bool {
		for ci < len(code) && code[ci][1] <= off {
			ci++
		}
		return ci < len(code) && code[ci][0] < end
	}
	type ref struct {
		label string
		off   int
	}
	var refs []ref
	defined := map[string]bool{}
	fence := false
	for off := 0; off < len(p.src); {
		line, next := nextLine(p.src, off)
		trim := bytes.TrimLeft(line, " \t")
		// Fences are tracked here too: a fence's opening line is not inside its content range.
		if bytes.HasPrefix(trim, []byte("```")) || bytes.HasPrefix(trim, []byte("~~~")) {
			fence = !fence
			off = next
			continue
		}
		if fence || !bytes.Contains(line, []byte("[^")) || inCode(off, off+len(line)) {
			off = next
			continue
		}
		s := string(line)
		if ls, le, ts, ok := footnoteDefAt(s); ok {
			label := s[ls:le]
			defined[strings.ToLower(label)] = true
			b.FootnoteDefs = append(b.FootnoteDefs, FootnoteDef{Label: label, Text: strings.TrimSpace(s[ts:]), Pos: p.pos(off + strings.IndexByte(s, '['))})
			s = strings.Repeat(" ", le+1) + s[le+1:] // keep scanning the definition's text
		}
		masked := s
		if strings.IndexByte(s, '`') >= 0 {
			masked = blankTickRuns(s)
		}
		for at := 0; ; {
			start, ls, le := nextFootnoteRef(masked, at)
			if start < 0 {
				break
			}
			at = le + 1
			if at < len(masked) && masked[at] == ':' && strings.TrimSpace(masked[:start]) == "" {
				continue
			}
			refs = append(refs, ref{label: masked[ls:le], off: off + start})
		}
		off = next
	}
	for _, r := range refs {
		b.FootnoteRefs = append(b.FootnoteRefs, FootnoteRef{Label: r.label, Defined: defined[strings.ToLower(r.label)], Pos: p.pos(r.off)})
	}
}
