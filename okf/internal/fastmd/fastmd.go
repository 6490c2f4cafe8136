// Package fastmd is okf's Markdown fast path: it reads the bodies real bundles write (headings,
// paragraphs of prose with links, lists, quotes, code, HTML comment blocks) line by line into the
// lists okf's Body is made of, several times faster than goldmark's parse and tree walk, and
// identical to it. It is how okf reads a body, not part of the model: its types (Link, Heading,
// CodeBlock, Citation, Comment, IndexSection, IndexEntry) mirror okf's field for field, but for
// positions, which are a line and a column here and okf adds the file's path
// (okf's TestFastmdMirrors keeps the two in step). It imports no package of the module.
//
// Anything it does not read exactly (see mdLine, mayDefine, inline and plainText) makes Read answer
// "not mine", with a reason (okf's TestBodyFastCoverage reports a bundle's), and okf parses the
// whole body with goldmark instead. okf's FuzzBodyFast, TestBodyFastRandom and TestBodyFastCorpus
// check it against goldmark: whatever it takes, it must read exactly as the tree walk does.
//
// The subset (CommonMark 0.31.2 plus goldmark's footnotes), outside fenced code:
//   - no `\r`, NUL, `\x01`, `\v`, `\f` anywhere; no tab in a line's indentation; no `<` (HTML
//     blocks, raw HTML) but in code spans, autolinks, HTML comment blocks (a line starting with
//     `<!--` at column 0, to the first line holding `-->`) and HTML blocks of a block-level tag
//     (a line at column 0 that goldmark's parser opens as kind 6, `<details>`, `</div>`, to the
//     next blank line; outside an index and a `# Citations` section); no `]:` in a paragraph, item or quote
//     starting with `[` (a link reference definition starts a paragraph with `[` and holds one;
//     without any, a bracket that is not an inline link is literal text);
//   - at column 0, a line is an ATX heading (`#`..`######`, a space, text not ending in `#`), a
//     fence opening, a thematic break after a blank line, heading, fence, break or list item, a
//     bullet (`-`, `*`) or ordered (`1.`, `1)`) item (one to four spaces, then text that would start
//     a paragraph), a footnote definition of one line, a block quote line (`>`, a space, and nothing
//     or paragraph text, not right after an item or definition, and followed by nothing but a blank
//     line, a heading, a fence or a comment), or a paragraph line starting with a character that
//     opens no block (no setext underlines, `+` items); an ordered item but one numbered 1 right
//     after a paragraph line, and a paragraph line right after a definition, fall back;
//   - list items (outside an index and a `# Citations` section, where an item is one line): an
//     item's text opens a paragraph in it, and the lines indented to its content column (the
//     column of that text) are its content: paragraphs, nested items (indented up to three more
//     columns), fenced code opened at the content column (each line read from that column, a blank
//     line as an empty one; a line indented less before the closing fence falls back) and indented
//     code; any other block in an item (heading, quote, break, definition, HTML) falls back. A line
//     indented less closes the items it is not in;
//   - a paragraph (in an item or not) is continued by any line of text that opens no block, whatever
//     its indentation (a lazy continuation line), by a line indented four columns or more past the
//     innermost item it is in, and by an ordered item not numbered 1 in its own container: none of
//     these can interrupt it; a paragraph at column 0 may be indented up to three columns;
//   - indented code (four columns past the container, or column 0, after anything but a paragraph)
//     runs to the first line indented less, its trailing blank lines left out; each line is read from
//     four columns past the container and ends with a newline; in an item, a blank line inside it
//     must be empty; after a footnote definition, an indented line falls back (it may continue it);
//   - inline, only links change what is recorded outside headings and citations: code spans and
//     autolinks are masked (they hide brackets, `<` and `\`; see inlineMask); a backslash before
//     ASCII punctuation is an escape and masked too (it hides a bracket), but one before a backtick
//     or `<` falls back (it could change the spans and autolinks found); then every `[` opens a
//     one-line `[text](dest)` or `![text](dest)` with a plain destination and an optional title in
//     double or single quotes (see titleEnd), a footnote reference `[^label]`, a literal `[text]`
//     not followed by `(` or `[`, literal nested brackets (`[[Page|text]]`) none of whose `]` is
//     followed by `(` or `[` (see bracketGroup), or is literal because no `]` follows it in its
//     block; a quote's paragraph is read as one block, its lines joined without their `>`;
//   - text that is recorded (heading text, link text, the items of a `# Citations` list) holds no
//     `*`, `\` or footnote reference, and `_` only between letters or digits; a code span gives its
//     content. Entities are kept as written, as goldmark's text segments keep them. A link's whole
//     text may be one to three `*` around such text starting and ending with a letter or digit
//     (`[**Page 12**](p.md)`, see emphasisAround): its text is the inner text's.
//   - footnote definitions are dropped unless referenced and their links come last, in the order of
//     first reference, as goldmark's footnote transformer does (see footnoteLinks).
//
// Fenced code opened at column 0 with ``` or ~~~ is taken whatever it holds.
package fastmd

import (
	"bytes"
	"regexp"
	"strings"
	"sync"

	"github.com/yuin/goldmark/ast"
	gmparser "github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
)

// Pos is a position in the file: its line and rune column, as okf's Position has them (okf adds
// the path).
type Pos struct {
	Line, Col int32
}

// Lines gives the line and rune column of a byte offset of the file (okf's line index of the
// whole file, which the body is part of).
type Lines interface {
	LineCol(off int) (line, col int32)
}

// Link mirrors okf.Link.
type Link struct {
	Target string
	Text   string
	Image  bool
	Pos    Pos
}

// Heading mirrors okf.Heading.
type Heading struct {
	Level int
	Text  string
	Pos   Pos
}

// CodeBlock mirrors okf.CodeBlock.
type CodeBlock struct {
	Fenced       bool
	Info         string
	Content      string
	Section      string
	SectionLevel int
	Sections     []string
	Pos          Pos
}

// Citation mirrors okf.Citation. Read leaves Target empty where the item has no link or autolink:
// okf then takes the text when it is a bare URL, as it does for goldmark's items (one IsURL).
type Citation struct {
	Text   string
	Target string
	Pos    Pos
}

// Comment mirrors okf.Comment.
type Comment struct {
	Text    string
	Pos     Pos
	EndLine int
}

// IndexSection mirrors okf.IndexSection.
type IndexSection struct {
	Heading string
	Level   int
	Pos     Pos
	Entries []IndexEntry
}

// IndexEntry mirrors okf.IndexEntry.
type IndexEntry struct {
	Title       string
	Target      string
	Description string
	Pos         Pos
}

// Result is what Read makes of a body: the lists of okf's Body the fast path fills (the footnote
// references and definitions are okf's own scan, shared with goldmark's reading, which needs
// CodeRanges) and, for an index, its sections. Its lists are the scratch's: they hold until the
// scratch's Done, so okf copies them out (each once, at its length) before it calls that.
type Result struct {
	Links      []Link
	Headings   []Heading
	CodeBlocks []CodeBlock
	Citations  []Citation
	Comments   []Comment
	// Blank is true when the body holds nothing but whitespace.
	Blank bool
	// CodeRanges are the body offsets [start, end) of the code blocks, for the footnote scan.
	CodeRanges [][2]int
	// Sections are an index's sections (Read with index true).
	Sections []IndexSection
}

// CommentExpr is the expression of an HTML comment okf's goldmark reading uses too, so that both
// readings find the same comments.
const CommentExpr = `(?s)<!--(.*?)-->`

var commentRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(CommentExpr) })

// Read reads the body src, which starts at byte offset offset of the file lines indexes, into s's
// Result, or answers ok false, with the reason (why) and the block it was met in (whyIn, maybe
// empty), when the body is outside the subset: okf reads it with goldmark then. With index, it
// also reads the sections and entries of an index. The Result is s's until s.Done.
func Read(src []byte, offset int, lines Lines, s *Scratch, index bool) (r *Result, why, whyIn string, ok bool) {
	p := &parser{src: src, offset: offset, lines: lines, scratch: s}
	r, ok = p.fastRead(index)
	return r, p.why, p.whyIn, ok
}

// parser reads one body.
type parser struct {
	src     []byte // the body
	offset  int    // of the body in the file
	lines   Lines
	scratch *Scratch
	// why and whyIn say why the fast path refused the body and in what block (see refuse).
	why, whyIn string
}

func (p *parser) pos(off int) Pos {
	l, c := p.lines.LineCol(off + p.offset)
	return Pos{Line: l, Col: c}
}

// Scratch is the memory the fast path reuses from body to body (one a loader worker): the lists it
// builds grow here, and okf copies out only their final contents, at exactly their length, instead
// of each body growing its own by doubling. Lists that grew past maxScratchItems are not kept.
type Scratch struct {
	res         Result
	links       []Link
	headings    []Heading
	code        []CodeBlock
	citations   []Citation
	comments    []Comment
	sections    []Heading // the chain of enclosing headings
	codeRanges  [][2]int
	isections   []IndexSection
	entries     []IndexEntry // the entries of every section of an index, back to back
	ix          fastIndex
	text, ltext []byte
}

const maxScratchItems = 1 << 12

// start hands f the scratch lists, empty, and with index the scratch's index.
func (s *Scratch) start(f *fastState, index bool) {
	s.res = Result{
		Links: s.links[:0], Headings: s.headings[:0], CodeBlocks: s.code[:0],
		Citations: s.citations[:0], Comments: s.comments[:0],
	}
	f.b = &s.res
	f.sections, f.codeRanges, f.text, f.ltext = s.sections[:0], s.codeRanges[:0], s.text[:0], s.ltext[:0]
	if index {
		s.ix = fastIndex{sections: s.isections[:0], entries: s.entries[:0]}
		f.ix = &s.ix
	}
}

// end takes back the working lists of f, which the Result does not hold.
func (s *Scratch) end(f *fastState) {
	s.sections, s.text, s.ltext = keptScratch(f.sections), keptScratch(f.text), keptScratch(f.ltext)
	f.sections, f.text, f.ltext = nil, nil, nil
}

// Done takes back the lists of the Result, which the caller has copied out of it: they are
// emptied (no string of the last body stays reachable from the scratch) and kept for the next body.
func (s *Scratch) Done() {
	r := &s.res
	s.links, s.headings, s.code = keptScratch(r.Links), keptScratch(r.Headings), keptScratch(r.CodeBlocks)
	s.citations, s.comments, s.codeRanges = keptScratch(r.Citations), keptScratch(r.Comments), keptScratch(r.CodeRanges)
	if r.Sections != nil || s.ix.entries != nil { // an index was read
		s.isections, s.entries = keptScratch(r.Sections), keptScratch(s.ix.entries)
	}
	s.res, s.ix = Result{}, fastIndex{}
}

// discard clears the whole of the scratch's lists, their spare capacity too, where a body the
// fast path refused appended what it found before refusing: none of it stays reachable.
func (s *Scratch) discard() {
	clear(s.links[:cap(s.links)])
	clear(s.headings[:cap(s.headings)])
	clear(s.code[:cap(s.code)])
	clear(s.citations[:cap(s.citations)])
	clear(s.comments[:cap(s.comments)])
	clear(s.sections[:cap(s.sections)])
	clear(s.codeRanges[:cap(s.codeRanges)])
	clear(s.isections[:cap(s.isections)])
	clear(s.entries[:cap(s.entries)])
	s.res, s.ix = Result{}, fastIndex{}
}

// keptScratch is l emptied, or nil when it grew too large to keep.
func keptScratch[T any](l []T) []T {
	if cap(l) > maxScratchItems {
		return nil
	}
	clear(l) // no string the last body made stays reachable from the scratch
	return l[:0]
}

// nextLine returns the line at off, without its newline, and the offset of the next.
func nextLine(src []byte, off int) (line []byte, next int) {
	i := bytes.IndexByte(src[off:], '\n')
	if i < 0 {
		return src[off:], len(src)
	}
	return src[off : off+i], off + i + 1
}

// fast line kinds
const (
	fkBlank = iota
	fkPara
	fkHeading
	fkFence
	fkItem  // a bullet or ordered list item of one line
	fkDef   // a footnote definition of one line
	fkBreak // a thematic break
	fkQuote // a block quote line
	fkNo    // outside the subset
)

// mdLine classifies a line outside fenced code.
func mdLine(line []byte) int {
	if len(line) == 0 {
		return fkBlank
	}
	switch c := line[0]; c {
	case ' ', '\t':
		for _, c := range line {
			if c != ' ' && c != '\t' {
				return fkNo
			}
		}
		return fkBlank
	case '#':
		n := 1
		for n < len(line) && line[n] == '#' {
			n++
		}
		if n > 6 {
			return fkPara
		}
		if n == len(line) || line[n] == '\t' {
			return fkNo
		}
		if line[n] != ' ' {
			return fkPara
		}
		t := bytes.TrimRight(line[n:], " \t")
		if len(t) == 0 || t[len(t)-1] == '#' {
			return fkNo
		}
		return fkHeading
	case '`', '~':
		n := 1
		for n < len(line) && line[n] == c {
			n++
		}
		if n < 3 {
			return fkPara
		}
		if c == '`' && bytes.IndexByte(line[n:], '`') >= 0 {
			return fkNo
		}
		return fkFence
	case '-', '*', '_', '=', '+':
		if breakLike(line) {
			if thematicBreak(line) {
				return fkBreak
			}
			return fkNo
		}
		if c == '+' {
			if len(line) == 1 || line[1] == ' ' || line[1] == '\t' { // an item, maybe empty
				return fkNo
			}
			return fkPara
		}
		if c == '-' || c == '*' {
			if len(line) == 1 || line[1] == '\t' {
				return fkNo
			}
			if line[1] == ' ' {
				if itemText(line, 1) < 0 {
					return fkNo
				}
				return fkItem
			}
		}
		return fkPara
	case '>':
		return fkQuote
	case '<': // an HTML block, unless an autolink (no HTML block starts with one)
		rest := line[1:]
		stop := util.FindEmailIndex(rest)
		if stop < 0 {
			stop = util.FindURLIndex(rest)
		}
		if stop < 0 || stop >= len(rest) || rest[stop] != '>' {
			return fkNo
		}
	case '0', '1', '2', '3', '4', '5', '6', '7', '8', '9':
		n := 1
		for n < len(line) && line[n] >= '0' && line[n] <= '9' {
			n++
		}
		if n < len(line) && (line[n] == '.' || line[n] == ')') {
			if n+1 < len(line) && line[n+1] != ' ' && line[n+1] != '\t' {
				return fkPara // "2.0 is": no list marker
			}
			if n <= 9 && itemText(line, n+1) > 0 {
				return fkItem
			}
			return fkNo
		}
		return fkPara
	case '[':
		if len(line) > 1 && line[1] == '^' {
			k := 2
			for k < len(line) && labelByte(line[k]) {
				k++
			}
			if k > 2 && k+1 < len(line) && line[k] == ']' && line[k+1] == ':' {
				// a footnote definition: its text must open a paragraph and hold no link, so that the
				// definition adds nothing to the Body wherever goldmark moves it
				if k+3 < len(line) && line[k+2] == ' ' && mdLine(line[k+3:]) == fkPara && !bytes.Contains(line[k+3:], []byte("[^")) {
					return fkDef
				}
				return fkNo
			}
		}
	}
	return fkPara
}

// itemText returns the offset of the text of a list item line whose marker ends at m, or -1 when
// the item is outside the subset: one to four spaces, then text that would open a paragraph (five
// spaces open indented code).
func itemText(line []byte, m int) int {
	i := m
	for i < len(line) && line[i] == ' ' {
		i++
	}
	if i == m || i-m > 4 || i == len(line) || mdLine(line[i:]) != fkPara {
		return -1
	}
	return i
}

// itemContent returns the offset of a list item line's text.
func itemContent(line []byte) int {
	m := 1
	for line[0] != '-' && line[0] != '*' && line[m-1] != '.' && line[m-1] != ')' {
		m++
	}
	return itemText(line, m)
}

// labelByte reports whether c may stand in a footnote label in the subset.
func labelByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_' || c == '.'
}

// ThematicBreak reports whether a line of the characters of thematic breaks and setext underlines
// is a thematic break (okf's taming of a body reads breaks so too).
func ThematicBreak(line []byte) bool { return thematicBreak(line) }

// HTMLBlock6 reports whether line (its indentation removed) opens an HTML block of a block-level
// tag, as goldmark's own parser reads it: such a block interrupts a paragraph (okf's taming of a
// body ends its paragraph there, as goldmark does).
func HTMLBlock6(line []byte) bool { return htmlBlock6(line) }

// thematicBreak reports whether a line of breakLike characters is a thematic break: three or more
// of one of '-', '*', '_' and nothing else but spaces and tabs.
func thematicBreak(line []byte) bool {
	var m byte
	n := 0
	for _, c := range line {
		switch c {
		case ' ', '\t':
		case '-', '*', '_':
			if m != 0 && c != m {
				return false
			}
			m = c
			n++
		default:
			return false
		}
	}
	return n >= 3
}

// breakLike reports whether a line holds only the characters of thematic breaks and setext
// underlines, and spaces.
func breakLike(line []byte) bool {
	for _, c := range line {
		switch c {
		case '-', '*', '_', '=', ' ', '\t':
		default:
			return false
		}
	}
	return true
}

// refuse answers "not mine" for the body, saying why (for TestBodyFastCoverage, which reports the
// reasons of a bundle's fallbacks): the first reason given is kept, and where it was met (a
// paragraph, a heading) beside it. It costs nothing on a body the fast path takes.
func (p *parser) refuse(why string) (*Result, bool) {
	p.no(why)
	return nil, false
}

// no records why the fast path refuses the body and returns false: the first reason, then the
// block it was met in.
func (p *parser) no(why string) bool {
	if p.why == "" {
		p.why = why
	} else if p.whyIn == "" {
		p.whyIn = why
	}
	return false
}

// blankLine reports whether line holds nothing but spaces and tabs.
func blankLine(line []byte) bool {
	for _, c := range line {
		if c != ' ' && c != '\t' {
			return false
		}
	}
	return true
}

// ordered reports whether an item line (of kind fkItem) is an ordered item.
func ordered(line []byte) bool { return line[0] >= '0' && line[0] <= '9' }

// startsOne reports whether line starts an ordered item numbered 1, which may interrupt a
// paragraph (no other ordered item may).
func startsOne(line []byte) bool {
	return len(line) > 2 && line[0] == '1' && (line[1] == '.' || line[1] == ')')
}

// noReasonKind names the block of kind k that content, a line in a list item, opens.
func noReasonKind(k int, content []byte) string {
	switch k {
	case fkHeading:
		return "a heading"
	case fkFence:
		return "a fence"
	case fkBreak:
		return "a break or setext underline"
	case fkQuote:
		return "a quote"
	case fkDef:
		return "a footnote definition"
	case fkNo:
		return noReason(content)
	}
	return "a paragraph"
}

// noReason names what puts a line of kind fkNo outside the subset.
func noReason(line []byte) string {
	switch c := line[0]; {
	case c == ' ' || c == '\t':
		t := bytes.TrimLeft(line, " \t")
		switch {
		case len(t) > 1 && (t[0] == '-' || t[0] == '*' || t[0] == '+') && (t[1] == ' ' || t[1] == '\t'):
			return "an indented line: a bullet item"
		case t[0] >= '0' && t[0] <= '9':
			return "an indented line: maybe an ordered item"
		case len(line)-len(t) >= 4 || c == '\t':
			return "an indented line: indented code or item content"
		}
		return "an indented line: one to three spaces"
	case c == '#':
		return "a heading without text, or closed with #"
	case c == '`':
		return "a fence whose info holds a backtick"
	case c == '+':
		return "a + item"
	case c == '-' || c == '*' || c == '_' || c == '=':
		if breakLike(line) {
			return "a setext underline or a spaced break"
		}
		return "a bullet item outside the subset (empty, a tab, or text that opens a block)"
	case c == '<':
		return "an HTML block"
	case c >= '0' && c <= '9':
		return "an ordered item outside the subset"
	case c == '[':
		return "a footnote definition outside the subset"
	}
	return "a line outside the subset"
}

// fastRead returns the Result of p.src, or ok false when the body is outside the subset; with
// index, it also reads the sections and entries of an index (see fastIndex).
func (p *parser) fastRead(index bool) (*Result, bool) {
	r, ok := p.fastScan(index)
	if !ok {
		p.scratch.discard()
	}
	return r, ok
}

// fastScan is fastRead but for what a refused body leaves in the scratch.
func (p *parser) fastScan(index bool) (*Result, bool) {
	src := p.src
	for _, c := range []byte{'\r', 0, 1, '\v', '\f'} {
		if bytes.IndexByte(src, c) >= 0 {
			return p.refuse("a control byte")
		}
	}
	f := fastState{p: p}
	// A refused body leaves what it appended in the spare capacity of the scratch's lists:
	// fastRead clears it (discard).
	p.scratch.start(&f, index)
	f.b.Blank = len(bytes.TrimSpace(src)) == 0
	ix := f.ix
	prev := fkBlank
	paraStart := -1 // offset of the open paragraph, -1 when none
	var cols []int  // the content columns of the open list items, outermost first
	inDef := false  // a footnote definition is open: an indented line may be its content
	for off := 0; off < len(src); {
		line, next := nextLine(src, off)
		if len(line) > 0 && line[0] != ' ' && line[0] != '\t' {
			inDef = false
		}
		if len(line) > 0 && (line[0] == ' ' || len(cols) > 0) && ix == nil && f.inCitations == 0 && !blankLine(line) {
			// a line that may be inside a list item, or continue a paragraph
			ind := 0
			for line[ind] == ' ' {
				ind++
			}
			if line[ind] == '\t' {
				return p.refuse("an indented line: a tab")
			}
			if prev == fkDef || prev == fkQuote || inDef {
				return p.refuse("an indented line after a footnote definition or quote") // maybe its continuation
			}
			content := line[ind:]
			ck := mdLine(content)
			base := 0
			if len(cols) > 0 {
				base = cols[len(cols)-1]
			}
			inner := 0 // the content column of the innermost item the line is in
			for i := len(cols) - 1; i >= 0; i-- {
				if ind >= cols[i] {
					inner = cols[i]
					break
				}
			}
			if paraStart >= 0 && (ck == fkPara || ind-inner >= 4 || ind >= base && ck == fkItem && ordered(content) && !startsOne(content)) {
				// a continuation line of the open paragraph (indented code and an ordered list
				// not starting at 1 cannot interrupt it), or a lazy one: text that opens no
				// block continues the paragraph, whatever its indentation
				if bytes.Contains(line, []byte("]:")) && src[paraStart] == '[' {
					return p.refuse("maybe a link reference definition")
				}
				off = next
				continue
			}
			for len(cols) > 0 && ind < cols[len(cols)-1] {
				cols = cols[:len(cols)-1]
			}
			if ind > 0 {
				if base = 0; len(cols) > 0 {
					base = cols[len(cols)-1]
				}
				// an item or a paragraph may be indented up to three columns in its container; four
				// open indented code (no paragraph is open: it would be continued)
				if ind-base > 3 {
					var ok bool
					if next, ok = f.indented(off, base, len(cols) > 0); !ok {
						return p.refuse("indented code")
					}
					prev = fkFence // a closed block
					off = next
					continue
				}
				if ck == fkFence && ind == base {
					if paraStart >= 0 && !f.inline(paraStart, off, false) {
						return p.refuse("a paragraph")
					}
					paraStart = -1
					var ok bool
					if next, ok = f.itemFence(off, base); !ok {
						return p.refuse("a fence in a list item")
					}
					prev = fkFence
					off = next
					continue
				}
				if ck != fkItem && ck != fkPara {
					return p.refuse("a block in a list item: " + noReasonKind(ck, content))
				}
				if paraStart >= 0 {
					if !f.inline(paraStart, off, false) {
						return p.refuse("a paragraph")
					}
					paraStart = -1
				}
				if ck == fkItem {
					c0 := itemContent(content)
					if bytes.Contains(content, []byte("]:")) && content[c0] == '[' {
						return p.refuse("maybe a link reference definition")
					}
					cols = append(cols, ind+c0)
					paraStart = off + ind + c0
				} else {
					if bytes.Contains(content, []byte("]:")) && content[0] == '[' {
						return p.refuse("maybe a link reference definition")
					}
					paraStart = off + ind
				}
				prev = fkPara
				if len(cols) > 0 {
					prev = fkItem // a paragraph open in a list item
				}
				off = next
				continue
			}
			// a line at column 0 closes every item: read below
			cols = cols[:0]
		}
		kind := mdLine(line)
		comment := bytes.HasPrefix(line, []byte("<!--"))
		// A block-level tag opens an HTML block (kind 6), which interrupts a paragraph and closes
		// the list items, quote or definition open, as a comment block does.
		html := !comment && len(line) > 0 && line[0] == '<' && ix == nil && f.inCitations == 0 && htmlBlock6(line)
		if kind == fkFence || comment || html {
			if paraStart >= 0 && !f.inline(paraStart, off, false) {
				return p.refuse("a paragraph")
			}
			paraStart = -1
			switch {
			case comment:
				next = f.htmlComment(off)
			case html:
				next = f.htmlBlock(off)
			default:
				next = f.fence(off)
			}
			prev = fkFence // a closed block
			off = next
			continue
		}
		if kind == fkQuote {
			if prev == fkItem || prev == fkDef {
				return p.refuse("a quote right after an item")
			}
			if paraStart >= 0 && !f.inline(paraStart, off, false) {
				return p.refuse("a paragraph")
			}
			paraStart = -1
			var ok bool
			if next, ok = f.quote(off); !ok {
				return p.refuse("a block quote")
			}
			prev = fkQuote
			off = next
			continue
		}
		if prev == fkQuote && (kind == fkPara || kind == fkItem || kind == fkDef) {
			return p.refuse("a line right after a quote") // maybe a lazy continuation of the quote's paragraph
		}
		if kind == fkNo {
			return p.refuse(noReason(line))
		}
		if bytes.Contains(line, []byte("]:")) && mayDefine(kind, line, src, paraStart, off) {
			return p.refuse("maybe a link reference definition")
		}
		if kind == fkPara && (prev == fkItem || prev == fkDef) {
			return p.refuse("a lazy continuation line")
		}
		// (after a list item, it closes the list: a setext underline cannot be lazy)
		if kind == fkBreak && prev != fkBlank && prev != fkHeading && prev != fkFence && prev != fkBreak && prev != fkItem {
			return p.refuse("a setext underline") // after a paragraph, `---` is a setext underline
		}
		if kind == fkItem && prev == fkPara && line[0] != '-' && line[0] != '*' && !startsOne(line) {
			return p.refuse("an ordered item after a paragraph") // only an ordered list starting at 1 interrupts a paragraph
		}
		if kind != fkPara && paraStart >= 0 {
			if !f.inline(paraStart, off, false) {
				return p.refuse("a paragraph")
			}
			paraStart = -1
		}
		switch kind {
		case fkPara:
			if f.inCitations > 0 && (line[0] == '[' || line[0] == '<' || bytes.IndexByte(line, ':') >= 0 || bytes.Contains(line, []byte("]("))) {
				// A paragraph in a Citations section may be the numbered form of v0.1
				// citations ([1] [Title](url), one per line): goldmark's reading records them
				// (citationLines), and so is a line that is a URL by IsURL (a scheme, then ':'), and
				// a line whose text is its link's target ("0 [](0)"). A paragraph none of whose
				// lines may be one records none.
				return p.refuse("a paragraph in a Citations section")
			}
			if paraStart < 0 {
				paraStart = off
			}
		case fkHeading:
			if !f.heading(off, line) {
				return p.refuse("a heading")
			}
		case fkItem:
			if ix == nil && f.inCitations == 0 {
				// its text opens a paragraph in the item, which lines indented to its content
				// column continue
				c0 := itemContent(line)
				cols = append(cols[:0], c0)
				paraStart = off + c0
			} else if !f.item(off, line) {
				return p.refuse("a list item")
			}
		case fkDef:
			// in an index, a definition falls back: whether the list after it is its own is
			// goldmark's to say
			if ix != nil {
				return p.refuse("a footnote definition in an index")
			}
			if !f.def(off, line) {
				return p.refuse("a footnote definition")
			}
			inDef = true
		}
		prev = kind
		off = next
	}
	if paraStart >= 0 && !f.inline(paraStart, len(src), false) {
		return p.refuse("a paragraph")
	}
	b := f.b
	if ix != nil {
		ix.flush()
		b.Sections = ix.sections
	}
	f.footnoteLinks()
	b.CodeRanges = f.codeRanges
	p.scratch.end(&f)
	return b, true
}

type fastState struct {
	p           *parser
	b           *Result
	sections    []Heading
	codeRanges  [][2]int
	inCitations int
	text        []byte     // recorded text being built
	ltext       []byte     // a link's text being built
	refs        []string   // footnote reference labels, in order
	defs        []fastDef  // footnote definitions, in order
	ix          *fastIndex // the index being read, nil for a concept
	lead        int        // the end of a link starting a line of inline text, -1 when none
	// block is the masked text of the block inlineLine reads, whose line starts at blockAt in
	// it, or nil: a '[' with no ']' after it in the block is literal
	block   []byte
	blockAt int
}

// fastDef is a footnote definition and the links it holds: goldmark drops a definition never
// referenced and moves the others to the end of the document, in the order of their first
// reference.
type fastDef struct {
	label string
	links []Link
}

// def reads the footnote definition line at off; its links are kept apart.
func (f *fastState) def(off int, line []byte) bool {
	k := bytes.Index(line, []byte("]:"))
	saved := f.b.Links
	f.b.Links = nil
	ok := f.inline(off+k+3, off+len(line), false)
	f.defs = append(f.defs, fastDef{label: string(line[2:k]), links: f.b.Links})
	f.b.Links = saved
	return ok
}

// footnoteLinks appends the links of the definitions goldmark keeps, as its footnote transformer
// orders them: the first definition of each label that is referenced, by first reference.
func (f *fastState) footnoteLinks() {
	if len(f.defs) == 0 {
		return
	}
	first := map[string]*fastDef{}
	for i := range f.defs {
		if first[f.defs[i].label] == nil {
			first[f.defs[i].label] = &f.defs[i]
		}
	}
	for _, r := range f.refs {
		if d := first[r]; d != nil {
			f.b.Links = append(f.b.Links, d.links...)
			delete(first, r)
		}
	}
}

func (f *fastState) heading(off int, line []byte) bool {
	n := 0
	for line[n] == '#' {
		n++
	}
	f.text = f.text[:0]
	masked, ok := inlineMask(line[n:])
	if !ok {
		return f.p.no("raw HTML")
	}
	if masked, ok = maskEscapes(line[n:], masked); !ok {
		return f.p.no("a backslash before a backtick or '<'")
	}
	f.block, f.blockAt = masked, 0 // a heading is one line
	ok = f.inlineLine(off+n, line[n:], masked, true)
	f.block = nil
	if !ok {
		return false
	}
	h := Heading{Level: n, Text: string(bytes.TrimSpace(f.text)), Pos: f.p.pos(off)}
	b := f.b
	b.Headings = append(b.Headings, h)
	for len(f.sections) > 0 && f.sections[len(f.sections)-1].Level >= n {
		f.sections = f.sections[:len(f.sections)-1]
	}
	f.sections = append(f.sections, h)
	if f.ix != nil {
		f.ix.flush()
		f.ix.cur, f.ix.curStart = IndexSection{Heading: h.Text, Level: n, Pos: h.Pos}, len(f.ix.entries)
	}
	if f.inCitations > 0 && n <= f.inCitations {
		f.inCitations = 0
	}
	if strings.EqualFold(h.Text, "citations") {
		f.inCitations = n
	}
	return true
}

func (f *fastState) item(off int, line []byte) bool {
	c0 := itemContent(line)
	if f.ix != nil && line[c0] == '[' {
		f.lead = -1
		first := len(f.b.Links)
		if !f.citedItem(off, line, c0) {
			return false
		}
		return f.ix.entry(f, off, line[c0:], first)
	}
	return f.citedItem(off, line, c0)
}

// fastIndex is what the fast path reads of an index beyond its Body: its sections, each heading
// and the entries under it (parseIndex reads them from goldmark's tree). Every item of the subset
// is one line of a list at the top level, so an entry is an item whose text starts with a link.
type fastIndex struct {
	sections []IndexSection
	cur      IndexSection
	// entries are the entries of every section, back to back; those of cur start at curStart.
	entries  []IndexEntry
	curStart int
}

func (ix *fastIndex) flush() {
	if ix.cur.Heading != "" || len(ix.entries) > ix.curStart {
		ix.cur.Entries = ix.entries[ix.curStart:len(ix.entries):len(ix.entries)]
		ix.sections = append(ix.sections, ix.cur)
	}
}

// entry records the item whose text (at off) starts with '[' as an entry when that is a link (its
// Link is the first of f.b.Links at or after first): Title and Target are the link's, Description
// the rest of the line as indexEntry reads it, which trims the text of each inline node after the
// link apart and joins them. goldmark ends a text node at every byte that starts one of its inline
// parsers, so the fast path reads the rest as pieces of text between code spans (a code span gives
// its content), and refuses the other bytes that start a parser ('<', '`' outside a span, '*',
// '!', '[', ']') or escape one, and '_' but between two letters or digits (a delimiter that can
// neither open nor close: goldmark splits the text there, where no space is to trim).
func (ix *fastIndex) entry(f *fastState, off int, text []byte, first int) bool {
	if f.lead < 0 {
		return true // a literal bracket or an image: not an entry
	}
	rest := text[f.lead:]
	masked := rest
	if bytes.IndexByte(rest, '`') >= 0 {
		masked = maskCodeSpans(rest)
	}
	var d []byte
	piece := 0 // the start of the text piece being read
	for i := 0; i < len(rest); i++ {
		switch c := masked[i]; c {
		case '<', '`', '*', '!', '[', ']', '\\':
			return false
		case '_':
			if i == 0 || i+1 == len(rest) || !alnum(rest[i-1]) || !alnum(rest[i+1]) {
				return false
			}
		case 0: // a code span
			d = append(d, rest[piece:i]...) // text as written, its spaces kept (as indexEntry)
			e := i
			for e < len(rest) && masked[e] == 0 {
				e++
			}
			d = append(d, bytes.TrimSpace(bytes.Trim(rest[i:e], "`"))...)
			piece = e
			i = e - 1
		}
	}
	d = append(d, rest[piece:]...)
	l := f.b.Links[first]
	desc := strings.TrimSpace(strings.TrimLeft(strings.TrimSpace(string(d)), "-–—:"))
	ix.entries = append(ix.entries, IndexEntry{Title: l.Text, Target: l.Target, Description: desc, Pos: f.p.pos(off)})
	return true
}

// citedItem records the links of the list item line at off whose text starts at c0, and its
// citation in a `# Citations` section.
func (f *fastState) citedItem(off int, line []byte, c0 int) bool {
	if f.inCitations == 0 {
		return f.inline(off+c0, off+len(line), false)
	}
	f.text = f.text[:0]
	first := len(f.b.Links)
	masked, ok := inlineMask(line[c0:])
	if ok {
		masked, ok = maskEscapes(line[c0:], masked)
	}
	if !ok || !f.inlineLine(off+c0, line[c0:], masked, true) {
		return false
	}
	c := Citation{Text: string(bytes.TrimSpace(f.text)), Pos: f.p.pos(off)}
	// The target is the first link (not image) or autolink, in the order of the text.
	auto := bytes.IndexByte(masked, 1)
	for _, l := range f.b.Links[first:] {
		if !l.Image {
			if auto < 0 || int(l.Pos.Col) <= int(f.p.pos(off+c0+auto).Col) {
				c.Target = l.Target
			}
			break
		}
	}
	if c.Target == "" && auto >= 0 {
		text := line[c0+auto:]
		c.Target = string(text[1:bytes.IndexByte(text, '>')])
	}
	// (a text that is a bare URL is the target: okf reads that, see Citation)
	f.b.Citations = append(f.b.Citations, c)
	return true
}

// fence reads the fenced code block opened by the line at off and returns the offset after it.
func (f *fastState) fence(off int) int {
	src := f.p.src
	line, next := nextLine(src, off)
	c := line[0]
	n := 1
	for n < len(line) && line[n] == c {
		n++
	}
	cb := CodeBlock{Fenced: true, Pos: f.p.pos(off)}
	// goldmark reads an info string only when the fence is followed by more than one byte,
	// counting the newline.
	full := line
	if next > off+len(line) {
		full = src[off:next]
	}
	if n < len(full)-1 {
		cb.Info = string(bytes.TrimSpace(line[n:]))
	}
	start, contentStart, contentEnd := off, next, len(src)
	for off = next; off < len(src); {
		l, nx := nextLine(src, off)
		if closesFence(l, c, n) {
			contentEnd = off
			off = nx
			break
		}
		off = nx
	}
	cb.Content = string(src[contentStart:contentEnd])
	if contentEnd == len(src) && len(cb.Content) > 0 && !strings.HasSuffix(cb.Content, "\n") {
		cb.Content += "\n" // goldmark ends the last line with a newline
	}
	end := start + 1
	if contentEnd > contentStart {
		end = contentEnd
	}
	f.addCodeBlock(cb, start, end)
	return off
}

// itemFence reads the fenced code block opened at column base (a list item's content column) by
// the line at off, and returns the offset after it. Each line of the block is read from column
// base, a blank line as an empty one (as goldmark does in a list item); a line indented less than
// base before the closing fence ends the item, and the block, and falls back.
func (f *fastState) itemFence(off, base int) (int, bool) {
	src := f.p.src
	line, next := nextLine(src, off)
	fl := line[base:]
	c := fl[0]
	n := 1
	for n < len(fl) && fl[n] == c {
		n++
	}
	cb := CodeBlock{Fenced: true, Pos: f.p.pos(off + base)}
	full := len(fl) // with its newline: an info string is read as fence reads it
	if next > off+len(line) {
		full++
	}
	if n < full-1 {
		cb.Info = string(bytes.TrimSpace(fl[n:]))
	}
	start := off + base
	var content []byte
	lines := 0
	contentEnd := len(src)
	for off = next; off < len(src); {
		l, nx := nextLine(src, off)
		if blankLine(l) {
			if bytes.IndexByte(l, '\t') >= 0 {
				return 0, false
			}
			if nx == len(src) && off+len(l) == nx && len(l) > 0 {
				break // a blank last line with no newline gives goldmark no line
			}
			content = append(content, '\n')
			lines++
			off = nx
			continue
		}
		for i := 0; i < base; i++ {
			if l[i] != ' ' {
				return 0, false // the end of the item
			}
		}
		if closesFence(l[base:], c, n) {
			contentEnd = off
			off = nx
			break
		}
		content = append(content, l[base:]...)
		content = append(content, '\n')
		lines++
		off = nx
	}
	cb.Content = string(content)
	end := start + 1
	if lines > 0 {
		end = contentEnd
	}
	f.addCodeBlock(cb, start, end)
	return off, true
}

// indented reads the indented code block whose first line is at off, in a container whose content
// starts at column base (a list item's, or 0), and returns the offset after it: the lines indented
// by base+4 spaces or more, and the blank lines between them, as goldmark's code block parser
// reads them (each line from column base+4, given a newline; a blank line shorter than that, a
// newline; the blank lines at the end left out). In a list item, a blank line inside the block
// must be empty: goldmark reads a blank line there before the item's indentation is taken off.
func (f *fastState) indented(off, base int, inItem bool) (int, bool) {
	src := f.p.src
	start := off
	var content []byte
	end, after := off, off // the end of the last line of code, and the offset after it
	for off < len(src) {
		line, next := nextLine(src, off)
		if blankLine(line) {
			if bytes.IndexByte(line, '\t') >= 0 || inItem && len(line) > 0 && next < len(src) {
				// a blank line that is not the last may be inside the block
				if !f.blankEnds(next, base) {
					return 0, false
				}
			}
			off = next
			continue
		}
		ind := 0
		for ind < len(line) && line[ind] == ' ' {
			ind++
		}
		if ind < base+4 {
			if ind < len(line) && line[ind] == '\t' {
				return 0, false
			}
			break
		}
		// the blank lines since the last line of code are inside the block
		for b := after; b < off; {
			l, nx := nextLine(src, b)
			if len(l) > base+4 {
				content = append(content, l[base+4:]...)
			}
			content = append(content, '\n')
			b = nx
		}
		content = append(content, line[base+4:]...)
		content = append(content, '\n')
		end, after = off+len(line), next
		if next > end {
			end = next // the line's newline
		}
		off = next
	}
	first := start + bytes.IndexFunc(src[start:], func(r rune) bool { return r != ' ' }) // goldmark's Pos
	cb := CodeBlock{Content: string(content), Pos: f.p.pos(first)}
	f.addCodeBlock(cb, first, end)
	return after, true
}

// addCodeBlock records cb, which spans src[start:end], under the headings it sits in.
func (f *fastState) addCodeBlock(cb CodeBlock, start, end int) {
	if len(f.sections) > 0 {
		last := f.sections[len(f.sections)-1]
		cb.Section, cb.SectionLevel = last.Text, last.Level
		cb.Sections = make([]string, len(f.sections))
		for i, s := range f.sections {
			cb.Sections[i] = s.Text
		}
	}
	f.codeRanges = append(f.codeRanges, [2]int{start, end})
	f.b.CodeBlocks = append(f.b.CodeBlocks, cb)
}

// blankEnds reports whether the blank lines from off on are followed by the end of the body or a
// line that ends an indented code block in a container at column base: then the blank lines
// before it are left out of the block.
func (f *fastState) blankEnds(off, base int) bool {
	src := f.p.src
	for off < len(src) {
		line, next := nextLine(src, off)
		if !blankLine(line) {
			ind := 0
			for ind < len(line) && line[ind] == ' ' {
				ind++
			}
			return ind < base+4
		}
		off = next
	}
	return true
}

// mayDefine reports whether the line at off, holding "]:", may be part of a link reference
// definition: those start a paragraph with '[' (and hold "]:"), so a paragraph, item or footnote
// text starting otherwise defines nothing, and a heading nothing either.
func mayDefine(kind int, line, src []byte, paraStart, off int) bool {
	switch kind {
	case fkPara:
		if paraStart < 0 {
			paraStart = off
		}
		return src[paraStart] == '['
	case fkItem:
		return line[itemContent(line)] == '['
	case fkDef:
		text := line[bytes.Index(line, []byte("]:"))+3:]
		return text[0] == '[' && bytes.Contains(text, []byte("]:"))
	}
	return false
}

// quote reads the block quote starting at off: lines of `>`, one optional space, and either
// nothing or text that would open a paragraph. It returns the offset after it.
func (f *fastState) quote(off int) (int, bool) {
	src := f.p.src
	var para [][2]int // the open paragraph's text, line by line
	for off < len(src) {
		line, next := nextLine(src, off)
		if len(line) == 0 || line[0] != '>' {
			break
		}
		c := 1
		if c < len(line) && line[c] == ' ' {
			c++
		}
		switch mdLine(line[c:]) {
		case fkBlank:
			if !f.quotePara(para) {
				return 0, false
			}
			para = para[:0]
		case fkPara:
			para = append(para, [2]int{off + c, off + len(line)})
		default:
			return 0, false
		}
		off = next
	}
	return off, f.quotePara(para)
}

// quotePara records the links of a paragraph in a block quote, whose lines are apart in the
// source: they are joined (without their '>' and space) and read as one block. A paragraph that
// may be a link reference definition, or holds a footnote reference, falls back.
func (f *fastState) quotePara(para [][2]int) bool {
	if len(para) == 0 {
		return true
	}
	var buf []byte
	var offs []int
	for _, r := range para {
		s := f.p.src[r[0]:r[1]]
		if f.p.src[para[0][0]] == '[' && bytes.Contains(s, []byte("]:")) || bytes.Contains(s, []byte("[^")) {
			return f.p.no("a quote paragraph that may define a reference, or cites a footnote")
		}
		offs = append(offs, r[0])
		buf = append(buf, s...)
		buf = append(buf, '\n')
	}
	return f.inlineBlock(buf, 0, offs)
}

// htmlComment reads the HTML block (CommonMark's kind 2) opened by the line at off, which starts
// with `<!--`: it ends with the first line holding `-->`, the opening line included, or at the end
// of the body. Its comments are recorded as comments does for goldmark's block, whose lines are
// contiguous here. It returns the offset after the block.
func (f *fastState) htmlComment(off int) int {
	src := f.p.src
	start, end := off, len(src)
	for off < len(src) {
		line, next := nextLine(src, off)
		off = next
		if bytes.Contains(line, []byte("-->")) {
			end = next
			break
		}
	}
	f.comments(start, end)
	return off
}

// htmlBlock reads the HTML block of CommonMark's kind 6 opened by the line at off (htmlBlock6): it
// ends before the next blank line, or at the end of the body. Nothing in it is Markdown; its
// comments are recorded as for goldmark's block. It returns the offset after the block.
func (f *fastState) htmlBlock(off int) int {
	src := f.p.src
	start := off
	for off < len(src) {
		line, next := nextLine(src, off)
		if blankLine(line) {
			break
		}
		off = next
	}
	f.comments(start, off)
	return off
}

// comments records the HTML comments of src[start:end], the lines of an HTML block.
func (f *fastState) comments(start, end int) {
	s := string(f.p.src[start:end])
	if !strings.Contains(s, "<!--") {
		return
	}
	for _, m := range commentRE().FindAllStringSubmatchIndex(s, -1) {
		f.b.Comments = append(f.b.Comments, Comment{Text: strings.TrimSpace(s[m[2]:m[3]]), Pos: f.p.pos(start + m[0]), EndLine: int(f.p.pos(start + m[1] - 1).Line)})
	}
}

// htmlBlock6 reports whether line, at column 0 of a line outside any container, opens what
// goldmark reads as an HTML block of CommonMark's kind 6: a block-level tag (`<details>`,
// `</div>`, `<table class="x">`), which may interrupt a paragraph and ends at the next blank
// line. goldmark's own HTML block parser decides, on the line alone: every other kind (a
// comment, `<script>`, `<?`, `<!X`, CDATA, any other tag) is not one, and stays outside the subset.
func htmlBlock6(line []byte) bool {
	if len(line) < 2 || line[0] != '<' || !(line[1] == '/' || line[1] >= 'a' && line[1] <= 'z' || line[1] >= 'A' && line[1] <= 'Z') {
		return false
	}
	n, _ := htmlBlockParser.Open(nil, text.NewReader(line), gmparser.NewContext())
	b, ok := n.(*ast.HTMLBlock)
	return ok && b.HTMLBlockType == ast.HTMLBlockType6
}

var htmlBlockParser = gmparser.NewHTMLBlockParser()

// closesFence reports whether line closes a fence of n characters c: up to three columns of
// indentation, at least n of c, then only spaces and tabs.
func closesFence(line []byte, c byte, n int) bool {
	w, i := 0, 0
	for ; i < len(line); i++ {
		if line[i] == ' ' {
			w++
		} else if line[i] == '\t' {
			w += 4 - w%4
		} else {
			break
		}
	}
	if w >= 4 {
		return false
	}
	j := i
	for j < len(line) && line[j] == c {
		j++
	}
	if j-i < n {
		return false
	}
	for ; j < len(line); j++ {
		if line[j] != ' ' && line[j] != '\t' {
			return false
		}
	}
	return true
}

// inline records the links of the unrecorded text src[from:to] (a paragraph or a list item's
// line), or returns false when its links cannot be read exactly without goldmark.
func (f *fastState) inline(from, to int, _ bool) bool {
	return f.inlineBlock(f.p.src[from:to], from, nil)
}

// inlineBlock records the links of the unrecorded text s: the source from offset from on, or
// when offs is not nil, lines joined by '\n' whose k-th starts at offset offs[k] of the source (a
// paragraph in a block quote, whose lines are apart in the source).
func (f *fastState) inlineBlock(s []byte, from int, offs []int) bool {
	bracket, lt := bytes.IndexByte(s, '[') >= 0, bytes.IndexByte(s, '<') >= 0
	if !bracket && !lt { // no link, no footnote reference, no HTML
		return true
	}
	masked, ok := inlineMask(s)
	if !ok {
		return f.p.no("raw HTML")
	}
	if masked, ok = maskEscapes(s, masked); !ok {
		return f.p.no("a backslash before a backtick or '<'")
	}
	if !bracket {
		return true
	}
	f.block = masked
	defer func() { f.block = nil }()
	for at, k := 0, 0; at < len(s); k++ {
		line, next := nextLine(s, at)
		off := from + at
		if offs != nil {
			off = offs[k]
		}
		f.blockAt = at
		if !f.inlineLine(off, line, masked[at:at+len(line)], false) {
			return false
		}
		at = next
	}
	return true
}

// maskEscapes masks the backslash escapes of masked (s with its code spans and autolinks masked,
// inside which a backslash is literal): an escaped ASCII punctuation character is literal (it opens
// no link and no emphasis), so the pair is masked with 2; plainText gives it as written, as
// goldmark's text segments do. It returns false when a backslash stands before a backtick or
// '<': escaping those could change the code spans and autolinks found.
func maskEscapes(s, masked []byte) ([]byte, bool) {
	if bytes.IndexByte(masked, '\\') < 0 {
		return masked, true
	}
	if bytes.Contains(s, []byte("\\`")) || bytes.Contains(s, []byte("\\<")) {
		return nil, false
	}
	if len(masked) > 0 && &masked[0] == &s[0] {
		masked = bytes.Clone(masked)
	}
	for i := 0; i+1 < len(masked); i++ {
		if masked[i] == '\\' && asciiPunct(masked[i+1]) {
			masked[i], masked[i+1] = 2, 2
			i++
		}
	}
	return masked, true
}

// inlineMask returns s with its code spans masked with 0 (see maskCodeSpans) and its autolinks
// (`<scheme:…>`, `<local@domain>`, read by goldmark's own functions) with 1, or false when s holds
// a '<' that is in neither (raw HTML, a comment) or an autolink overlapping a code span. An autolink
// hides the brackets it holds, and a link's text gives its address.
func inlineMask(s []byte) ([]byte, bool) {
	masked := s
	if bytes.IndexByte(s, '`') >= 0 {
		masked = maskCodeSpans(s)
	}
	if bytes.IndexByte(masked, '<') < 0 {
		return masked, true
	}
	if bytes.IndexByte(s, '`') < 0 {
		masked = bytes.Clone(s)
	}
	e := 0 // the end of the line being read, with its newline (goldmark reads the rest of the line)
	for i := 0; i < len(masked); i++ {
		if masked[i] != '<' {
			continue
		}
		if i >= e { // found once per line: many autolinks on one long line stay linear
			e = len(s)
			if k := bytes.IndexByte(s[i:], '\n'); k >= 0 {
				e = i + k + 1
			}
		}
		rest := s[i+1 : e]
		stop := util.FindEmailIndex(rest)
		if stop < 0 {
			stop = util.FindURLIndex(rest)
		}
		if stop < 0 || stop >= len(rest) || rest[stop] != '>' {
			return nil, false
		}
		end := i + stop + 2 // after the '>'
		for k := i; k < end; k++ {
			if masked[k] == 0 {
				return nil, false
			}
			masked[k] = 1
		}
		i = end - 1
	}
	return masked, true
}

// maskCodeSpans returns a copy of the inline text s with the code spans, which hide any bracket
// they hold, overwritten with 0 (which the subset has nowhere else) but for their newlines: a run
// of n backticks opens a span that the next run of exactly n closes, or is literal when there is
// none (§6.1). Escapes are not read: a caller falls back on any backslash left unmasked, and up to
// the first such backslash (read left to right) the spans found are goldmark's, since inside a
// span a backslash is literal.
func maskCodeSpans(s []byte) []byte {
	m := bytes.Clone(s)
	// Bound: the runs are listed once, and the runs of each length once more, each list with a
	// cursor that only moves forward (openers are met left to right): linear, where searching the
	// rest of the text from every opener was quadratic on a text of many unmatched runs.
	type run struct{ start, end int }
	var runs []run
	for i := 0; i < len(s); {
		k := bytes.IndexByte(s[i:], '`')
		if k < 0 {
			break
		}
		j := i + k
		e := j
		for e < len(s) && s[e] == '`' {
			e++
		}
		runs = append(runs, run{j, e})
		i = e
	}
	byLen := map[int][]int{} // run indexes by length
	for x, r := range runs {
		byLen[r.end-r.start] = append(byLen[r.end-r.start], x)
	}
	cursor := map[int]int{}
	for x := 0; x < len(runs); x++ {
		n := runs[x].end - runs[x].start
		same := byLen[n]
		c := cursor[n]
		for c < len(same) && same[c] <= x {
			c++
		}
		cursor[n] = c
		if c == len(same) {
			continue // literal backticks
		}
		y := same[c]
		for k := runs[x].start; k < runs[y].end; k++ {
			if m[k] != '\n' {
				m[k] = 0
			}
		}
		x = y // the runs inside the span are its content
	}
	return m
}

// inlineLine records the links of one line at off; with recorded, its text (links replaced by
// their text) is appended to f.text and must be free of what would change it. masked is line with
// its code spans masked (or line itself): brackets are looked for in masked.
func (f *fastState) inlineLine(off int, line, masked []byte, recorded bool) bool {
	i := 0
	for {
		j := bytes.IndexByte(masked[i:], '[')
		if j < 0 {
			if recorded && !plainText(line, masked, i, len(line), &f.text) {
				return f.p.no("emphasis, an escape or HTML in recorded text")
			}
			return true
		}
		j += i
		if j+1 < len(line) && masked[j+1] == '^' {
			// a footnote reference: whether its label is defined or not, it makes no link when
			// no '(' or '[' follows; its text is not recorded
			if recorded {
				return f.p.no("a footnote reference in recorded text")
			}
			k := j + 2
			for k < len(line) && labelByte(line[k]) {
				k++
			}
			if k == j+2 || k >= len(line) || line[k] != ']' || k+1 < len(line) && (masked[k+1] == '(' || masked[k+1] == '[' || masked[k+1] == ':') {
				return f.p.no("a footnote reference outside the subset")
			}
			f.refs = append(f.refs, string(line[j+2:k]))
			i = k + 1
			continue
		}
		if f.block != nil && bytes.IndexByte(f.block[f.blockAt+j:], ']') < 0 {
			// no ']' in the rest of the block: every bracket left is literal
			if recorded && !plainText(line, masked, i, len(line), &f.text) {
				return f.p.no("emphasis, an escape or HTML in recorded text")
			}
			return true
		}
		k := j + 1
		for k < len(line) && masked[k] != '[' && masked[k] != ']' {
			k++
		}
		if k >= len(line) {
			return f.p.no("a bracket not closed on its line")
		}
		if masked[k] == '[' {
			// nested brackets (a wiki link [[Page]] or [[Page|text]]): literal when no ']' in
			// them is followed by '(' or '[' and none opens a footnote reference
			e := bracketGroup(masked, j)
			if e < 0 {
				return f.p.no("nested brackets outside the subset")
			}
			if recorded && !plainText(line, masked, i, e+1, &f.text) {
				return f.p.no("emphasis, an escape or HTML in recorded text")
			}
			i = e + 1
			continue
		}
		if k+1 < len(line) && masked[k+1] == '[' {
			return f.p.no("a reference link")
		}
		if k+1 >= len(line) || masked[k+1] != '(' {
			// literal brackets: no definition exists
			if recorded && !plainText(line, masked, i, k+1, &f.text) {
				return f.p.no("emphasis, an escape or HTML in recorded text")
			}
			i = k + 1
			continue
		}
		d := k + 2
		for d < len(line) && plainDest(line[d]) {
			d++
		}
		dest := line[k+2 : d]
		if len(dest) > 0 && d < len(line) && (line[d] == ' ' || line[d] == '\t') {
			d = titleEnd(line, masked, d) // a title, which no Body records
		}
		if len(dest) == 0 || d < 0 || d >= len(line) || line[d] != ')' {
			return f.p.no(destReason(line[k+2:]))
		}
		image := j > 0 && masked[j-1] == '!'
		start := j
		if image {
			start--
		}
		f.ltext = f.ltext[:0]
		t0, t1 := j+1, k
		if n := emphasisAround(line, masked, t0, t1); n > 0 {
			t0, t1 = t0+n, t1-n // the text of [**x**](y) is x's
		}
		if !plainText(line, masked, t0, t1, &f.ltext) {
			return f.p.no("emphasis, an escape or HTML in link text")
		}
		if recorded {
			if !plainText(line, masked, i, start, &f.text) {
				return f.p.no("emphasis, an escape or HTML in recorded text")
			}
			f.text = append(f.text, f.ltext...)
		}
		f.b.Links = append(f.b.Links, Link{Target: string(dest), Text: string(bytes.TrimSpace(f.ltext)), Image: image, Pos: f.p.pos(off + start)})
		if start == 0 && !image {
			f.lead = d + 1
		}
		i = d + 1
	}
}

// emphasisAround returns n when the link text line[from:to] is n `*` (one to three), a text with
// no `*` that starts and ends with an ASCII letter or digit, and n `*` again: `[**Page 12**](p.md)`.
// goldmark reads the runs as emphasis around the text (the `[` before the first is punctuation and
// the text's first byte opens no other reading; the `]` after the last likewise), and the link's
// text is the text's own; 0 otherwise.
func emphasisAround(line, masked []byte, from, to int) int {
	n := 0
	for n < 3 && from+n < to && masked[from+n] == '*' && line[from+n] == '*' {
		n++
	}
	if n == 0 || to-from <= 2*n {
		return 0
	}
	for x := to - n; x < to; x++ {
		if masked[x] != '*' || line[x] != '*' {
			return 0
		}
	}
	a, z := from+n, to-n-1
	if !alnum(line[a]) || !alnum(line[z]) || masked[a] != line[a] || masked[z] != line[z] || bytes.IndexByte(masked[a:z+1], '*') >= 0 {
		return 0
	}
	return n
}

// bracketGroup returns the offset of the ']' closing the '[' at j of masked (the brackets nested
// in between balanced, on the line), or -1 when the group may hold or make a link, a reference
// or a footnote reference: a ']' followed by '(' or '[', a "[^", a ':' after the group, or no
// closing bracket on the line.
func bracketGroup(masked []byte, j int) int {
	depth := 0
	for x := j; x < len(masked); x++ {
		switch masked[x] {
		case '[':
			if x+1 < len(masked) && masked[x+1] == '^' {
				return -1
			}
			depth++
		case ']':
			if x+1 < len(masked) && (masked[x+1] == '(' || masked[x+1] == '[') {
				return -1
			}
			if depth--; depth == 0 {
				if x+1 < len(masked) && masked[x+1] == ':' {
					return -1
				}
				return x
			}
		}
	}
	return -1
}

// plainText writes to w the text goldmark records for line[from:to], which holds no link, or
// returns false when emphasis or escapes might change it. Code spans (masked with 0)
// give their content.
func plainText(line, masked []byte, from, to int, w *[]byte) bool {
	for i := from; i < to; i++ {
		c := line[i]
		if masked[i] == 1 { // an autolink (which holds no '>'): its address
			e := i + bytes.IndexByte(line[i:], '>')
			*w = append(*w, line[i+1:e]...)
			i = e
			continue
		}
		if masked[i] == 2 && c == '\\' { // an escape: as written
			*w = append(*w, c, line[i+1])
			i++
			continue
		}
		if masked[i] == 0 {
			e := i
			for e < to && masked[e] == 0 {
				e++
			}
			n := 0
			for i+n < e && line[i+n] == '`' {
				n++
			}
			if e-n < i+n {
				return false // not a whole code span (cannot happen: brackets are never masked)
			}
			content := line[i+n : e-n]
			if bytes.IndexByte(content, '\t') >= 0 {
				return false
			}
			if len(content) > 2 && content[0] == ' ' && content[len(content)-1] == ' ' && len(bytes.Trim(content, " ")) > 0 {
				content = content[1 : len(content)-1]
			}
			*w = append(*w, content...)
			i = e - 1
			continue
		}
		switch c {
		case '*', '\\', '<':
			return false
		case '_': // literal between two letters or digits (it can neither open nor close)
			if i == 0 || i+1 == len(line) || !alnum(line[i-1]) || !alnum(line[i+1]) {
				return false
			}
		}
		*w = append(*w, c) // entities stay as written: goldmark's text segments are the source's bytes
	}
	return true
}

func alnum(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' }

// asciiPunct reports whether c is ASCII punctuation, which a backslash escapes (§2.4).
func asciiPunct(c byte) bool {
	return c >= '!' && c <= '/' || c >= ':' && c <= '@' || c >= '[' && c <= '`' || c >= '{' && c <= '~'
}

// plainDest reports whether c may stand in a link destination in the subset. Bytes of UTF-8
// beyond ASCII do (a file named räumung.md): goldmark reads a destination byte by byte and ends
// it at ASCII space only, keeping the bytes as written.
func plainDest(c byte) bool {
	if c <= ' ' || c == 0x7f {
		return false
	}
	switch c {
	case '(', ')', '<', '>', '\\', '&', '"', '\'', '[', ']', '`':
		return false
	}
	return true
}

// destReason names what puts the link destination at the start of d outside the subset.
func destReason(d []byte) string {
	i := 0
	for i < len(d) && plainDest(d[i]) {
		i++
	}
	switch {
	case i == 0 && len(d) > 0 && d[0] == '<':
		return "a link destination in angle brackets"
	case i == 0 && len(d) > 0 && d[0] == ')':
		return "an empty link destination"
	case i < len(d) && d[i] == ' ' && i+1 < len(d) && (d[i+1] == '"' || d[i+1] == '\'' || d[i+1] == '('):
		return "a link title"
	case i == len(d):
		return "a link not closed on its line"
	}
	return "a link destination outside the subset"
}

// titleEnd returns the offset of the ')' closing a link whose destination ends at d, before the
// spaces and the title that follow it, or -1 when the title is outside the subset: in double or single quotes,
// on the link's line, holding none of the bytes that could end it elsewhere or change the text
// around it (its quote, '\\', '`', '<', brackets, a masked byte).
func titleEnd(line, masked []byte, d int) int {
	for d < len(line) && (line[d] == ' ' || line[d] == '\t') {
		d++
	}
	if d == len(line) || line[d] != '"' && line[d] != '\'' {
		return -1
	}
	q := line[d]
	for d++; d < len(line) && line[d] != q; d++ {
		switch c := line[d]; {
		case masked[d] != c, c == '\\', c == '`', c == '<', c == '[', c == ']', c == '"', c == '\'':
			return -1
		}
	}
	if d == len(line) {
		return -1
	}
	for d++; d < len(line) && (line[d] == ' ' || line[d] == '\t'); d++ {
	}
	return d
}
