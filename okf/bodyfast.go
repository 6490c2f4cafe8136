package okf

import (
	"bytes"
	"strings"
)

// The Markdown fast path. Most bodies are headings, paragraphs of prose with a few `[text](dest)`
// links, one-line bullet items and fenced code: for those, fastBody builds the Body line by line,
// several times faster than goldmark's parse and tree walk, and identical to it. Anything it does
// not read exactly (see mdLine and fastInline) makes it answer "not mine", and parsedBody parses
// the whole body with goldmark instead. FuzzBodyFast and TestBodyFastRandom check it against
// goldmark: whatever it takes, it must read exactly as the tree walk does.
//
// The subset (CommonMark 0.31.2), outside fenced code:
//   - no `\r`, NUL, `\v`, `\f` anywhere; no `<` (HTML blocks, raw HTML, comments, autolinks), no
//     `[^` (footnotes) and no `]:` (every link reference definition holds one, so without it a
//     bracket that is not an inline link is literal text);
//   - every non-blank line starts at column 0 (no indentation: no indented code, no lazy or nested
//     list content) and is an ATX heading (`#`..`######`, a space, text not ending in `#`), a
//     fence opening, a `-`/`*` bullet item of one line (a space, then text that would start a
//     paragraph), or a paragraph line starting with a character that opens no block (no `>`,
//     thematic breaks, setext underlines, ordered items, `+` items);
//   - a paragraph line right after a bullet item (a lazy continuation) falls back;
//   - inline, only links change what is recorded outside headings and citations: in a block
//     holding a `[`, no `` ` `` or `\` (code spans and escapes can hide a link), and every `[` opens
//     a one-line `[text](dest)` or `![text](dest)` with plain text and a plain destination, or is a
//     literal `[text]` not followed by `(` or `[`;
//   - text that is recorded (heading text, the items of a `# Citations` list) holds no `*`, `_`,
//     `` ` ``, `&` or `\`, which emphasis, code spans, entities and escapes would change.
//
// Fenced code (opened at column 0 with ``` or ~~~) is taken whatever it holds.

// fast line kinds
const (
	fkBlank = iota
	fkPara
	fkHeading
	fkFence
	fkItem
	fkNo // outside the subset
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
			return fkNo
		}
		if c == '+' {
			if len(line) > 1 && (line[1] == ' ' || line[1] == '\t') {
				return fkNo
			}
			return fkPara
		}
		if c == '-' || c == '*' {
			if len(line) == 1 || line[1] == '\t' {
				return fkNo
			}
			if line[1] == ' ' {
				if mdLine(line[2:]) != fkPara {
					return fkNo
				}
				return fkItem
			}
		}
		return fkPara
	case '>', '<':
		return fkNo
	case '0', '1', '2', '3', '4', '5', '6', '7', '8', '9':
		n := 1
		for n < len(line) && line[n] >= '0' && line[n] <= '9' {
			n++
		}
		if n < len(line) && (line[n] == '.' || line[n] == ')') {
			return fkNo
		}
		return fkPara
	}
	return fkPara
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

// fastBody returns the Body of p.src, or ok false when the body is outside the subset.
func (p *bodyParser) fastBody() (*Body, bool) {
	src := p.src
	for _, c := range []byte{'\r', 0, '\v', '\f'} {
		if bytes.IndexByte(src, c) >= 0 {
			return nil, false
		}
	}
	f := fastState{p: p, b: &Body{Blank: len(bytes.TrimSpace(src)) == 0}}
	prev := fkBlank
	paraStart := -1 // offset of the open paragraph, -1 when none
	for off := 0; off < len(src); {
		line, next := nextLine(src, off)
		kind := mdLine(line)
		if kind == fkFence {
			if paraStart >= 0 && !f.inline(paraStart, off, false) {
				return nil, false
			}
			paraStart = -1
			next = f.fence(off)
			prev = fkFence
			off = next
			continue
		}
		if kind == fkNo || bytes.IndexByte(line, '<') >= 0 || bytes.Contains(line, []byte("[^")) || bytes.Contains(line, []byte("]:")) {
			return nil, false
		}
		if kind == fkPara && prev == fkItem {
			return nil, false // a lazy continuation line
		}
		if kind != fkPara && paraStart >= 0 {
			if !f.inline(paraStart, off, false) {
				return nil, false
			}
			paraStart = -1
		}
		switch kind {
		case fkPara:
			if paraStart < 0 {
				paraStart = off
			}
		case fkHeading:
			if !f.heading(off, line) {
				return nil, false
			}
		case fkItem:
			if !f.item(off, line) {
				return nil, false
			}
		}
		prev = kind
		off = next
	}
	if paraStart >= 0 && !f.inline(paraStart, len(src), false) {
		return nil, false
	}
	b := f.b
	p.footnotes(b, f.codeRanges)
	b.Links = clip(b.Links)
	b.Headings = clip(b.Headings)
	b.CodeBlocks = clip(b.CodeBlocks)
	b.Citations = clip(b.Citations)
	return b, true
}

type fastState struct {
	p           *bodyParser
	b           *Body
	sections    []Heading
	codeRanges  [][2]int
	inCitations int
	text        strings.Builder // recorded text being built
}

func (f *fastState) heading(off int, line []byte) bool {
	n := 0
	for line[n] == '#' {
		n++
	}
	f.text.Reset()
	if !f.inlineLine(off+n, line[n:], true) {
		return false
	}
	h := Heading{Level: n, Text: strings.TrimSpace(f.text.String()), Pos: f.p.pos(off)}
	b := f.b
	b.Headings = append(b.Headings, h)
	for len(f.sections) > 0 && f.sections[len(f.sections)-1].Level >= n {
		f.sections = f.sections[:len(f.sections)-1]
	}
	f.sections = append(f.sections, h)
	if f.inCitations > 0 && n <= f.inCitations {
		f.inCitations = 0
	}
	if strings.EqualFold(h.Text, "citations") {
		f.inCitations = n
	}
	return true
}

func (f *fastState) item(off int, line []byte) bool {
	if f.inCitations == 0 {
		return f.inline(off+2, off+len(line), false)
	}
	f.text.Reset()
	first := len(f.b.Links)
	if !f.inlineLine(off+2, line[2:], true) {
		return false
	}
	c := Citation{Text: strings.TrimSpace(f.text.String()), Pos: f.p.pos(off)}
	if len(f.b.Links) > first {
		for _, l := range f.b.Links[first:] {
			if !l.Image {
				c.Target = l.Target
				break
			}
		}
	}
	if c.Target == "" && IsURL(c.Text) && !strings.ContainsAny(c.Text, " \t") {
		c.Target = c.Text
	}
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
		cb.Info = strings.TrimSpace(string(line[n:]))
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
	if len(f.sections) > 0 {
		last := f.sections[len(f.sections)-1]
		cb.Section, cb.SectionLevel = last.Text, last.Level
		for _, s := range f.sections {
			cb.Sections = append(cb.Sections, s.Text)
		}
	}
	f.codeRanges = append(f.codeRanges, [2]int{start, end})
	f.b.CodeBlocks = append(f.b.CodeBlocks, cb)
	return off
}

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
	s := f.p.src[from:to]
	if bytes.IndexByte(s, '[') < 0 {
		return true
	}
	if bytes.IndexByte(s, '`') >= 0 || bytes.IndexByte(s, '\\') >= 0 {
		return false
	}
	for off := from; off < to; {
		line, next := nextLine(f.p.src[:to], off)
		if !f.inlineLine(off, line, false) {
			return false
		}
		off = next
	}
	return true
}

// inlineLine records the links of one line at off; with recorded, its text (links replaced by
// their text) is appended to f.text and must be free of what would change it.
func (f *fastState) inlineLine(off int, line []byte, recorded bool) bool {
	if recorded {
		for _, c := range line {
			switch c {
			case '*', '_', '`', '&', '\\':
				return false
			}
		}
	}
	i := 0
	for {
		j := bytes.IndexByte(line[i:], '[')
		if j < 0 {
			if recorded {
				f.text.Write(line[i:])
			}
			return true
		}
		j += i
		k := j + 1
		for k < len(line) && plainLinkText(line[k]) {
			k++
		}
		if k >= len(line) || line[k] != ']' {
			return false
		}
		if k+1 < len(line) && line[k+1] == '[' {
			return false
		}
		if k+1 >= len(line) || line[k+1] != '(' {
			// literal brackets: no definition exists
			if recorded {
				f.text.Write(line[i : k+1])
			}
			i = k + 1
			continue
		}
		d := k + 2
		for d < len(line) && plainDest(line[d]) {
			d++
		}
		if d == k+2 || d >= len(line) || line[d] != ')' {
			return false
		}
		image := j > 0 && line[j-1] == '!'
		start := j
		if image {
			start--
		}
		text := line[j+1 : k]
		if recorded {
			f.text.Write(line[i:start])
			f.text.Write(text)
		}
		f.b.Links = append(f.b.Links, Link{Target: string(line[k+2 : d]), Text: strings.TrimSpace(string(text)), Image: image, Pos: f.p.pos(off + start)})
		i = d + 1
	}
}

// plainLinkText reports whether c may stand in a link's text in the subset.
func plainLinkText(c byte) bool {
	switch c {
	case '[', ']', '\\', '`', '*', '_', '<', '>', '&', '!', '(', ')', '"', '\'', '\n':
		return false
	}
	return true
}

// plainDest reports whether c may stand in a link destination in the subset.
func plainDest(c byte) bool {
	if c <= ' ' || c >= 0x7f {
		return false
	}
	switch c {
	case '(', ')', '<', '>', '\\', '&', '"', '\'', '[', ']', '`':
		return false
	}
	return true
}
