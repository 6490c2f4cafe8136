package okf

import (
	"bytes"
	"slices"
	"sort"
	"strings"
	"sync"

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
// built on first use: most bodies take the fast path of bodyfast.go and never need it, and building
// goldmark's parser set at init cost every process.
var markdown = sync.OnceValue(func() goldmark.Markdown { return goldmark.New(goldmark.WithExtensions(footnotes)) })

// bodyParser walks one body; offsets from goldmark are relative to the body and are shifted by
// offset into the file before they become positions.
type bodyParser struct {
	path   string
	src    []byte // the body
	offset int
	lines  *lineIndex // of the whole file
	// scratch, when not nil, is the memory of the loader worker's fast path (bodyScratch).
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
// (an index reads its entries from the same tree), nil to parse it here: by the fast path of
// bodyfast.go when the body is in its subset, else by goldmark. The tree is only read.
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
// lists it builds grow here, and only their final contents are copied out, at exactly their length
// (what clip would make of them), instead of each body growing its own by doubling. Lists that
// grew past maxScratchItems are not kept.
type bodyScratch struct {
	links       []Link
	headings    []Heading
	code        []CodeBlock
	sections    []Heading
	codeRanges  [][2]int
	text, ltext []byte
}

const maxScratchItems = 1 << 12

// start hands f the scratch lists, empty.
func (bs *bodyScratch) start(f *fastState) {
	f.b.Links, f.b.Headings, f.b.CodeBlocks = bs.links[:0], bs.headings[:0], bs.code[:0]
	f.sections, f.codeRanges, f.text, f.ltext = bs.sections[:0], bs.codeRanges[:0], bs.text[:0], bs.ltext[:0]
}

// finish takes back the lists f grew and gives f's Body copies of them that nothing else shares.
func (bs *bodyScratch) finish(f *fastState) {
	b := f.b
	links, headings, code := b.Links, b.Headings, b.CodeBlocks
	b.Links, b.Headings, b.CodeBlocks = owned(links), owned(headings), owned(code)
	// (after the copies: keptScratch clears what it keeps)
	bs.links, bs.headings, bs.code = keptScratch(links), keptScratch(headings), keptScratch(code)
	bs.sections, bs.codeRanges = keptScratch(f.sections), keptScratch(f.codeRanges)
	bs.text, bs.ltext = keptScratch(f.text), keptScratch(f.ltext)
	f.sections, f.codeRanges, f.text, f.ltext = nil, nil, nil, nil
}

// discard clears the whole of the scratch's lists, their spare capacity too, where a body the
// fast path refused appended what it found before refusing: none of it stays reachable.
func (bs *bodyScratch) discard() {
	clear(bs.links[:cap(bs.links)])
	clear(bs.headings[:cap(bs.headings)])
	clear(bs.code[:cap(bs.code)])
	clear(bs.sections[:cap(bs.sections)])
	clear(bs.codeRanges[:cap(bs.codeRanges)])
}

// keptScratch is s emptied, or nil when it grew too large to keep.
func keptScratch[T any](s []T) []T {
	if cap(s) > maxScratchItems {
		return nil
	}
	clear(s) // no string the last body made stays reachable from the scratch
	return s[:0]
}

// owned is a copy of s at exactly its length, nil when s is empty (as an unused list is).
func owned[T any](s []T) []T {
	if len(s) == 0 {
		return nil
	}
	out := make([]T, len(s))
	copy(out, s)
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
