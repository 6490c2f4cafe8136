// Package fastyaml reads the YAML of a frontmatter block into the yaml.v3 node tree okf's model is
// built from: the shapes real bundles write by hand-written code several times faster than
// yaml.v3, anything else by yaml.v3 itself (Unmarshal). It is how okf reads the model, not part of
// it; FuzzFastYAML and the differential tests check that both give the same trees.
package fastyaml

import (
	"bytes"
	"strings"
	"time"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"
)

// Unmarshal reads a frontmatter block into doc as yaml.Unmarshal(raw, doc) does. The shapes
// real bundles write (block mappings and sequences, one-line flow sequences of plain scalars,
// one-line flow mappings of plain keys and plain, simply quoted or flow-sequence values, plain and
// simply quoted one-line scalars) are read by fastYAML, several times faster; anything else
// (comments, anchors, tags, block scalars, escapes, multi-line scalars, tabs, odd characters, any
// doubt) goes to yaml.v3. FuzzFastYAML checks the two give the same node trees.
//
// With a scratch (a loader worker's), the nodes are built in its memory, reused for the next
// block: the caller must be done with doc before it parses another block with the same scratch.
func Unmarshal(raw []byte, doc *yaml.Node, s *Scratch) error {
	if n, ok := fastYAML(raw, s); ok {
		*doc = *n
		return nil
	}
	return yaml.Unmarshal(raw, doc)
}

// fastParser reads the subset of YAML fastYAML accepts, line by line. A failure to match the
// subset is not an error: it sets bail, and the caller hands the text to yaml.v3.
type fastParser struct {
	lines []fastLine
	i     int // next line
	slab  []yaml.Node
	stack []*yaml.Node // the children of the collections being read, innermost last
	ptrs  []*yaml.Node // the children of the collections read, back to back (their Content)
	bail  bool
}

type fastLine struct {
	text   []byte // without the line break, indentation and trailing spaces
	indent int    // leading spaces
	n      int    // 1-based line number
	blanks int    // empty lines just before this one
	trail  bool   // the line had trailing spaces
}

// Scratch is the memory one loader worker's fastYAML reuses from block to block: the line
// table and the node slab. A block's tree is dropped (its values copied into the Frontmatter)
// before the next is parsed, so a worker keeps one slab instead of allocating ~20 KB per file. The
// slab kept is bounded by maxScratchNodes; a larger block gets a slab of its own.
type Scratch struct {
	lines       []fastLine
	slab        []yaml.Node
	stack, ptrs []*yaml.Node
}

const maxScratchNodes = 4096

// fastYAML returns the document node, or ok false when raw is not in the subset. s may be nil.
func fastYAML(raw []byte, s *Scratch) (doc *yaml.Node, ok bool) {
	if !fastSafe(raw) {
		return nil, false
	}
	if len(raw) == 0 || raw[len(raw)-1] != '\n' {
		return nil, false // a block between delimiters always ends with a line break
	}
	p := &fastParser{}
	if s != nil {
		p.lines, p.stack, p.ptrs = s.lines[:0], s.stack[:0], s.ptrs[:0]
		defer func() {
			if cap(p.lines) <= maxScratchNodes {
				s.lines = p.lines[:0]
			}
			if cap(p.stack) <= maxScratchNodes && cap(p.ptrs) <= maxScratchNodes {
				s.stack, s.ptrs = p.stack[:0], p.ptrs[:0]
			}
		}()
	}
	n, blanks := 0, 0
	for off := 0; off < len(raw); {
		line, next := nextLine(raw, off)
		off = next
		n++
		ind := 0
		for ind < len(line) && line[ind] == ' ' {
			ind++
		}
		text := line[ind:]
		if len(text) == 0 {
			if ind > 0 {
				return nil, false // a line of spaces: content in a block scalar, left to yaml.v3
			}
			blanks++
			continue
		}
		trail := false
		for text[len(text)-1] == ' ' {
			text, trail = text[:len(text)-1], true
		}
		if ind == 0 && (hasPrefix(text, "---") || hasPrefix(text, "...")) {
			return nil, false // document markers
		}
		p.lines = append(p.lines, fastLine{text: text, indent: ind, n: n, blanks: blanks, trail: trail})
		blanks = 0
	}
	if len(p.lines) == 0 {
		return nil, false
	}
	// Each line holds at most a key and its value; a flow sequence's items get chunks of their own.
	// A flow mapping's pairs share a line: a comma adds at most two nodes, a brace one.
	need := 2*len(p.lines) + 2
	if bytes.IndexByte(raw, '{') >= 0 {
		need += 2*bytes.Count(raw, []byte{','}) + bytes.Count(raw, []byte{'{'})
	}
	switch {
	case s != nil && cap(s.slab) >= need:
		p.slab = s.slab[:0]
	case s != nil && need <= maxScratchNodes:
		s.slab = make([]yaml.Node, 0, max(need, 256))
		p.slab = s.slab
	default:
		p.slab = make([]yaml.Node, 0, need)
	}
	d := p.node()
	first := p.lines[0]
	*d = yaml.Node{Kind: yaml.DocumentNode, Line: first.n, Column: first.indent + 1}
	if !isSeqItem(first.text) && first.indent != 0 {
		return nil, false
	}
	top := p.block(first.indent)
	if p.bail || p.i != len(p.lines) || top == nil {
		return nil, false
	}
	p.stack = append(p.stack, top)
	d.Content = p.children(0)
	return d, true
}

// children ends a collection whose children were gathered on the stack from base: they move to the
// arena of finished collections, which the Content returned shares (capacity capped, so an append
// to it copies), instead of each collection growing a slice of its own. Like the node slab, the
// arena is reused for the next block only once this block's tree is dropped.
func (p *fastParser) children(base int) []*yaml.Node {
	items := p.stack[base:]
	if len(items) == 0 {
		return nil
	}
	if cap(p.ptrs)-len(p.ptrs) < len(items) {
		// The collections already ended keep the array they were given.
		p.ptrs = make([]*yaml.Node, 0, max(2*cap(p.ptrs), len(items), 64))
	}
	start := len(p.ptrs)
	p.ptrs = append(p.ptrs, items...)
	p.stack = p.stack[:base]
	return p.ptrs[start:len(p.ptrs):len(p.ptrs)]
}

// fastSafe rejects text with any character the subset leaves to yaml.v3 wherever it is: tabs,
// carriage returns, control characters, comments, and non-ASCII characters YAML treats specially (line and paragraph separators, BOM, NEL, C1 controls,
// non-characters).
func fastSafe(raw []byte) bool {
	for i := 0; i < len(raw); {
		c := raw[i]
		if !asciiToLook[c] {
			i++ // most of a frontmatter: printable ASCII other than '#'
			continue
		}
		if c < utf8.RuneSelf {
			switch {
			case c == '\n':
			case c < 0x20 || c == 0x7f:
				return false
			case c == '#' && (i == 0 || raw[i-1] == ' ' || raw[i-1] == '\n'):
				return false // a comment (a '#' inside a word is text)
			}
			i++
			continue
		}
		r, size := utf8.DecodeRune(raw[i:])
		if r == utf8.RuneError || r < 0xA0 || r == 0x2028 || r == 0x2029 || r == 0xFEFF || r == 0xFFFE || r == 0xFFFF {
			return false
		}
		i += size
	}
	return true
}

// asciiToLook marks the bytes fastSafe looks at: control characters (a newline too, which it
// passes), DEL, '#' and every byte of a multi-byte character. Printable ASCII is skipped by one
// table lookup instead of the switch.
var asciiToLook = func() (t [256]bool) {
	for c := 0; c < 256; c++ {
		t[c] = c < 0x20 || c == 0x7f || c == '#' || c >= utf8.RuneSelf
	}
	return t
}()

func hasPrefix(b []byte, s string) bool { return len(b) >= len(s) && string(b[:len(s)]) == s }

func (p *fastParser) node() *yaml.Node {
	if len(p.slab) == cap(p.slab) {
		p.slab = make([]yaml.Node, 0, 16)
	}
	p.slab = p.slab[:len(p.slab)+1]
	return &p.slab[len(p.slab)-1]
}

func isSeqItem(text []byte) bool { return text[0] == '-' && (len(text) == 1 || text[1] == ' ') }

// block reads the mapping or sequence whose lines start at column indent.
func (p *fastParser) block(indent int) *yaml.Node {
	if p.i >= len(p.lines) {
		p.bail = true
		return nil
	}
	l := p.lines[p.i]
	if l.indent != indent {
		p.bail = true
		return nil
	}
	if isSeqItem(l.text) {
		return p.sequence(indent)
	}
	return p.mapping(indent, l.text, l.n, indent)
}

// mapping reads a block mapping whose first key is text (at line n, column col), and whose later
// keys are on lines indented by indent.
func (p *fastParser) mapping(indent int, text []byte, n, col int) *yaml.Node {
	m := p.node()
	*m = yaml.Node{Kind: yaml.MappingNode, Tag: "!!map", Line: n, Column: col + 1}
	base := len(p.stack)
	p.i++ // the first key's line is consumed here; text is what follows its indentation or "- "
	for {
		colon := keyEnd(text)
		if colon < 0 {
			p.bail = true
			return nil
		}
		k := p.node()
		*k = yaml.Node{Kind: yaml.ScalarNode, Value: keyName(text[:colon]), Line: n, Column: col + 1}
		k.Tag = plainTag(k)
		rest := text[colon+1:]
		var v *yaml.Node
		if len(rest) == 0 {
			// The value is the block on the next lines: deeper, or a sequence at the key's column.
			var next fastLine
			if p.i < len(p.lines) {
				next = p.lines[p.i]
			}
			switch {
			case p.i < len(p.lines) && next.indent > indent:
				v = p.block(next.indent)
			case p.i < len(p.lines) && next.indent == indent && isSeqItem(next.text):
				v = p.sequence(indent)
			default:
				v = p.null(n, col+colon+1) // yaml.v3 puts an empty value just after the colon
			}
		} else {
			sp := 1
			for sp < len(rest) && rest[sp] == ' ' {
				sp++
			}
			if rest[0] != ' ' {
				p.bail = true
				return nil
			}
			v = p.value(rest[sp:], n, col+colon+1+sp, indent)
		}
		if p.bail {
			return nil
		}
		p.stack = append(p.stack, k, v)
		if p.i >= len(p.lines) || p.lines[p.i].indent != indent || isSeqItem(p.lines[p.i].text) {
			if p.i < len(p.lines) && p.lines[p.i].indent > indent {
				p.bail = true
			}
			m.Content = p.children(base)
			return m
		}
		l := p.lines[p.i]
		text, n, col = l.text, l.n, l.indent
		p.i++
	}
}

// sequence reads a block sequence whose "-" are at column indent.
func (p *fastParser) sequence(indent int) *yaml.Node {
	l := p.lines[p.i]
	s := p.node()
	*s = yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq", Line: l.n, Column: indent + 1}
	base := len(p.stack)
	for p.i < len(p.lines) {
		l = p.lines[p.i]
		if l.indent != indent || !isSeqItem(l.text) {
			if l.indent > indent {
				p.bail = true
				return nil
			}
			break
		}
		if len(l.text) == 1 {
			p.i++
			if p.i < len(p.lines) && p.lines[p.i].indent > indent {
				p.bail = true // "-" alone: an item on the next lines
				return nil
			}
			p.stack = append(p.stack, p.null(l.n, indent+1))
			continue
		}
		sp := 1
		for sp < len(l.text) && l.text[sp] == ' ' {
			sp++
		}
		item := l.text[sp:]
		col := indent + sp
		var v *yaml.Node
		if keyEnd(item) >= 0 {
			// "- key: value": a mapping whose later keys are aligned with the first.
			v = p.mapping(col, item, l.n, col)
		} else {
			if isSeqItem(item) || item[0] == '|' || item[0] == '>' {
				p.bail = true // nested sequences and block scalars in a sequence are left to yaml.v3
				return nil
			}
			p.i++
			v = p.value(item, l.n, col, indent)
		}
		if p.bail {
			return nil
		}
		p.stack = append(p.stack, v)
	}
	s.Content = p.children(base)
	return s
}

// keyEnd returns the index of the ":" ending a simple plain key at the start of text (followed by
// a space or the end of the line), or -1.
func keyEnd(text []byte) int {
	if len(text) == 0 || !(isLetter(text[0]) || text[0] == '_') {
		return -1
	}
	for i := 1; i < len(text) && i < 1000; i++ { // YAML limits simple keys to 1024 characters
		c := text[i]
		if c == ':' {
			if i+1 == len(text) || text[i+1] == ' ' {
				return i
			}
			return -1
		}
		if !(isLetter(c) || c >= '0' && c <= '9' || c == '_' || c == '-' || c == '.' || c == '/') {
			return -1
		}
	}
	return -1
}

func isLetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

// null is an empty value at 0-based column col.
func (p *fastParser) null(n, col int) *yaml.Node {
	v := p.node()
	*v = yaml.Node{Kind: yaml.ScalarNode, Tag: "!!null", Line: n, Column: col + 1}
	return v
}

// value reads a value that starts on its key's or dash's line (after p.i has moved past that
// line) and may go on over the following lines indented deeper than parent: a block scalar, or a
// plain scalar folded over several lines.
func (p *fastParser) value(text []byte, n, col, parent int) *yaml.Node {
	if text[0] == '|' || text[0] == '>' {
		return p.blockScalar(text, n, col, parent)
	}
	v := p.inline(text, n, col)
	if p.bail || p.i >= len(p.lines) || p.lines[p.i].indent <= parent {
		return v
	}
	if v.Kind != yaml.ScalarNode || v.Style != 0 {
		p.bail = true // quoted scalars and flow lists over several lines are left to yaml.v3
		return nil
	}
	buf := []byte(v.Value)
	for p.i < len(p.lines) && p.lines[p.i].indent > parent {
		l := p.lines[p.i]
		if !plainBlockSafe(l.text) {
			p.bail = true
			return nil
		}
		if l.blanks == 0 {
			buf = append(buf, ' ')
		}
		for range l.blanks {
			buf = append(buf, '\n')
		}
		buf = append(buf, l.text...)
		p.i++
	}
	v.Value = string(buf)
	v.Tag = plainTag(v)
	return v
}

// blockScalar reads a literal (|) or folded (>) scalar with clip or strip chomping, whose lines are
// indented alike (a literal's may be indented more), with no line of spaces and no trailing spaces.
func (p *fastParser) blockScalar(header []byte, n, col, parent int) *yaml.Node {
	literal := header[0] == '|'
	if len(header) > 2 || len(header) == 2 && header[1] != '-' || p.i >= len(p.lines) {
		p.bail = true
		return nil
	}
	strip := len(header) == 2
	first := p.lines[p.i]
	if first.indent <= parent || first.blanks > 0 {
		p.bail = true // an empty scalar, or one that starts with empty lines
		return nil
	}
	ind := first.indent
	var buf []byte
	for p.i < len(p.lines) && p.lines[p.i].indent > parent {
		l := p.lines[p.i]
		if l.indent < ind || l.trail || l.indent > ind && !literal {
			p.bail = true
			return nil
		}
		if p.i > 0 && len(buf) > 0 {
			switch {
			case literal:
				for range l.blanks + 1 {
					buf = append(buf, '\n')
				}
			case l.blanks == 0:
				buf = append(buf, ' ')
			default:
				for range l.blanks {
					buf = append(buf, '\n')
				}
			}
		}
		for range l.indent - ind {
			buf = append(buf, ' ')
		}
		buf = append(buf, l.text...)
		p.i++
	}
	if !strip {
		buf = append(buf, '\n')
	}
	style := yaml.FoldedStyle
	if literal {
		style = yaml.LiteralStyle
	}
	v := p.node()
	*v = yaml.Node{Kind: yaml.ScalarNode, Style: style, Tag: "!!str", Value: string(buf), Line: n, Column: col + 1}
	return v
}

// inline reads a value written on its key's or dash's line, starting at 0-based byte column col.
func (p *fastParser) inline(text []byte, n, col int) *yaml.Node {
	v := p.node()
	switch text[0] {
	case '"', '\'':
		q := text[0]
		if len(text) < 2 || text[len(text)-1] != q {
			p.bail = true
			return nil
		}
		body := text[1 : len(text)-1]
		for _, c := range body {
			if c == q || q == '"' && c == '\\' {
				p.bail = true // '' in single quotes, an escape, or text after the closing quote
				return nil
			}
		}
		style := yaml.DoubleQuotedStyle
		if q == '\'' {
			style = yaml.SingleQuotedStyle
		}
		*v = yaml.Node{Kind: yaml.ScalarNode, Style: style, Tag: "!!str", Value: string(body), Line: n, Column: col + 1}
	case '[':
		if !p.flowSequence(v, text, n, col) {
			return nil
		}
	case '{':
		if !p.flowMapping(v, text, n, col) {
			return nil
		}
	default:
		if !plainBlockSafe(text) {
			p.bail = true
			return nil
		}
		*v = yaml.Node{Kind: yaml.ScalarNode, Value: string(text), Line: n, Column: col + 1}
		v.Tag = plainTag(v)
	}
	return v
}

// flowSequence reads a one-line flow sequence of plain scalars, text "[...]" starting at 0-based
// column col, into v. It returns false (and sets bail) when text is not one.
func (p *fastParser) flowSequence(v *yaml.Node, text []byte, n, col int) bool {
	*v = yaml.Node{Kind: yaml.SequenceNode, Style: yaml.FlowStyle, Tag: "!!seq", Line: n, Column: col + 1}
	if text[len(text)-1] != ']' {
		p.bail = true
		return false
	}
	body := text[1 : len(text)-1]
	start := 1
	for len(body) > 0 && body[0] == ' ' {
		body, start = body[1:], start+1
	}
	if len(body) == 0 {
		return true
	}
	base := len(p.stack)
	runes := runeCounter{text: text}
	for {
		end := 0
		for end < len(body) && body[end] != ',' {
			end++
		}
		item := body[:end]
		for len(item) > 0 && item[len(item)-1] == ' ' {
			item = item[:len(item)-1]
		}
		if len(item) == 0 || !plainFlowSafe(item) {
			p.bail = true
			return false
		}
		c := p.node()
		*c = yaml.Node{Kind: yaml.ScalarNode, Value: string(item), Line: n, Column: col + runes.to(start) + 1}
		c.Tag = plainTag(c)
		p.stack = append(p.stack, c)
		if end == len(body) {
			v.Content = p.children(base)
			return true
		}
		body = body[end+1:]
		start += end + 1
		for len(body) > 0 && body[0] == ' ' {
			body, start = body[1:], start+1
		}
		if len(body) == 0 {
			p.bail = true // a trailing comma
			return false
		}
	}
}

// flowMapping reads a one-line flow mapping, text "{...}" starting at 0-based column col, into m:
// simple plain keys each followed by ": ", and values that are plain scalars, quoted scalars with no
// escape, or flow sequences of plain scalars (flowSequence's). It returns false (and sets bail) on
// anything else: a nested mapping, an empty value, a key without a value, a trailing comma, "?"
// keys, text after the closing brace (the block's value() bails on one over several lines).
func (p *fastParser) flowMapping(m *yaml.Node, text []byte, n, col int) bool {
	*m = yaml.Node{Kind: yaml.MappingNode, Style: yaml.FlowStyle, Tag: "!!map", Line: n, Column: col + 1}
	last := len(text) - 1
	if text[last] != '}' {
		p.bail = true
		return false
	}
	i := skipSpaces(text, 1)
	if i == last {
		return true // {} or { }
	}
	base := len(p.stack)
	runes := runeCounter{text: text}
	for {
		// A key: a letter or '_', then letters, digits and _-./, then ": ".
		k0 := i
		if !(isLetter(text[i]) || text[i] == '_') {
			p.bail = true
			return false
		}
		for i < last && i-k0 < 1000 && (isLetter(text[i]) || text[i] >= '0' && text[i] <= '9' || strings.IndexByte("_-./", text[i]) >= 0) {
			i++
		}
		if text[i] != ':' || text[i+1] != ' ' {
			p.bail = true
			return false
		}
		k := p.node()
		*k = yaml.Node{Kind: yaml.ScalarNode, Value: keyName(text[k0:i]), Line: n, Column: col + runes.to(k0) + 1}
		k.Tag = plainTag(k)
		i = skipSpaces(text, i+2)
		v0 := i
		vcol := col + runes.to(v0) + 1
		v := p.node()
		switch q := text[i]; q {
		case '"', '\'':
			// A quoted scalar with no escape: the first quote after the opening one closes it.
			end := i + 1
			for end < last && text[end] != q {
				if q == '"' && text[end] == '\\' {
					p.bail = true
					return false
				}
				end++
			}
			if end == last {
				p.bail = true
				return false
			}
			style := yaml.DoubleQuotedStyle
			if q == '\'' {
				style = yaml.SingleQuotedStyle
			}
			*v = yaml.Node{Kind: yaml.ScalarNode, Style: style, Tag: "!!str", Value: string(text[i+1 : end]), Line: n, Column: vcol}
			i = end + 1 // a quote that follows ('' in single quotes) is refused below
		case '[':
			end := i + 1
			for end < last && text[end] != ']' {
				end++
			}
			if end == last || !p.flowSequence(v, text[i:end+1], n, vcol-1) {
				p.bail = true
				return false
			}
			i = end + 1
		default:
			// A plain scalar: up to the ',' or '}' that ends it, with no other flow indicator, no
			// quote, no '?', and a ':' only inside a word (2026-06-06T10:00:00Z, process:nightly).
			end := i
			for ; end < last && text[end] != ',' && text[end] != '}'; end++ {
				switch c := text[end]; c {
				case '[', ']', '{', '"', '\'', '?':
					p.bail = true
					return false
				case ':':
					if nc := text[end+1]; !(isLetter(nc) || nc >= '0' && nc <= '9' || nc == '/') {
						p.bail = true
						return false
					}
				}
			}
			val := text[i:end]
			for len(val) > 0 && val[len(val)-1] == ' ' {
				val = val[:len(val)-1]
			}
			if len(val) == 0 || !plainBlockSafe(val) {
				p.bail = true
				return false
			}
			*v = yaml.Node{Kind: yaml.ScalarNode, Value: string(val), Line: n, Column: vcol}
			v.Tag = plainTag(v)
			i = end
		}
		p.stack = append(p.stack, k, v)
		i = skipSpaces(text, i)
		switch {
		case i == last:
			m.Content = p.children(base)
			return true
		case text[i] == ',':
			i = skipSpaces(text, i+1)
			if i < last {
				continue
			}
		}
		p.bail = true // a trailing comma, or text after a value
		return false
	}
}

// runeWork, when set (by a test), counts the bytes a runeCounter reads.
var runeWork *int

// runeCounter gives the rune count of text up to offsets that only grow, counting on from the last
// one: the columns of a line's items cost one pass over the line, not one pass each.
type runeCounter struct {
	text   []byte
	off, n int
}

func (r *runeCounter) to(off int) int {
	if off < r.off {
		r.off, r.n = 0, 0
	}
	if runeWork != nil {
		*runeWork += off - r.off
	}
	r.n += utf8.RuneCount(r.text[r.off:off])
	r.off = off
	return r.n
}

func skipSpaces(text []byte, i int) int {
	for i < len(text) && text[i] == ' ' {
		i++
	}
	return i
}

// plainTag resolves a plain scalar's tag the way yaml.v3 does (resolve.go). A scalar whose first
// character cannot start a null, boolean, number, timestamp or merge key is a string; one starting
// with a letter of resolveTable's 'M' class is a boolean, null or merge key only when it is one of
// resolveMap's words, a string otherwise. Only scalars starting with a digit, a sign or a dot (numbers,
// timestamps, .inf) are handed to yaml.v3. TestPlainTagMatchesYAML checks the three agree.
func plainTag(n *yaml.Node) string {
	v := n.Value
	if v == "" {
		n.Tag = ""
		return n.ShortTag()
	}
	switch c := v[0]; {
	case strings.IndexByte("yYnNtTfFoO~<", c) >= 0:
		switch v {
		case "true", "True", "TRUE", "false", "False", "FALSE":
			return "!!bool"
		case "~", "null", "Null", "NULL":
			return "!!null"
		case "<<":
			return "!!merge"
		}
		return "!!str"
	case strings.IndexByte("+-0123456789.", c) >= 0:
		if numberless(v) {
			return "!!str"
		}
		if tag, ok := timestampTag(v); ok {
			return tag
		}
		n.Tag = ""
		return n.ShortTag()
	}
	return "!!str"
}

// yamlTimestampLayouts are yaml.v3's timestamp layouts (resolve.go, allowedTimestampFormats) keyed
// by the byte that follows the date: 0 for none.
var yamlTimestampLayouts = map[byte]string{
	'T': "2006-1-2T15:4:5.999999999Z07:00",
	't': "2006-1-2t15:4:5.999999999Z07:00",
	' ': "2006-1-2 15:4:5.999999999",
	0:   "2006-1-2",
}

// timestampTag resolves a plain scalar that starts with four digits and a dash (ok true) as
// yaml.v3 does, without its failed attempts: such a scalar is never a number, so it is a
// !!timestamp when one of yaml.v3's timestamp layouts reads it, a string otherwise; and of those
// layouts, only the one whose byte after the date (a month and a day of one or two digits each, as
// time.Parse reads "1" and "2") is the scalar's own can read it. TestPlainTagMatchesYAML checks it.
func timestampTag(v string) (tag string, ok bool) {
	if len(v) < 5 || v[4] != '-' || !isDigits(v[:4]) {
		return "", false
	}
	i := 5
	for field := 0; field < 2; field++ {
		digits := 0
		for i < len(v) && digits < 2 && v[i] >= '0' && v[i] <= '9' {
			i++
			digits++
		}
		if digits == 0 {
			return "!!str", true
		}
		if field == 0 {
			if i >= len(v) || v[i] != '-' {
				return "!!str", true
			}
			i++
		}
	}
	var next byte
	if i < len(v) {
		next = v[i]
	}
	layout, known := yamlTimestampLayouts[next]
	if !known {
		return "!!str", true
	}
	if _, err := time.Parse(layout, v); err != nil {
		return "!!str", true
	}
	return "!!timestamp", true
}

func isDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// numberless reports whether a plain scalar that starts like a number (a digit, sign or dot) is
// certainly none: yaml.v3 reads it as a string. A number or timestamp yaml.v3 recognises (ParseInt
// and ParseUint with base prefixes, its float pattern, ParseFloat after a dot, its timestamp
// layouts, the 0b and 0o forms) is written with digits, signs, dots, underscores, colons, spaces,
// tabs and only the letters eEtTzZoObB, plus hexadecimal digits after 0x. So a byte outside that
// set, in a scalar with no x at all, settles it: a sha256 or a version like 2.4.1-beta is a string.
func numberless(v string) bool {
	if len(v) <= 5 || strings.ContainsAny(v, "xX") {
		// A short one may be one of resolveMap's words (.nan, -.inf); one with an x may be a
		// hexadecimal integer, 0x1F, also spelled 0_x1F (underscores are dropped).
		return false
	}
	for i := 0; i < len(v); i++ {
		switch c := v[i]; {
		case c >= '0' && c <= '9':
		case strings.IndexByte("+-._: \teEtTzZoObB", c) >= 0:
		default:
			return true
		}
	}
	return false
}

// plainBlockSafe reports whether text, written after "key: " or "- ", is one plain scalar: it does
// not start with an indicator, and holds no ": " and no trailing ":" (a nested mapping).
func plainBlockSafe(text []byte) bool {
	switch text[0] {
	case '-', '?', ':', ',', '[', ']', '{', '}', '#', '&', '*', '!', '|', '>', '\'', '"', '%', '@', '`':
		return false
	}
	for i, c := range text {
		if c == ':' && (i+1 == len(text) || text[i+1] == ' ') {
			return false
		}
	}
	return true
}

// plainFlowSafe is plainBlockSafe inside [ ]: no flow indicator, no ':' and no '?' at all
// (yaml.v3 refuses "[a?]": its scanner ends a plain scalar at '?' inside a flow collection).
func plainFlowSafe(text []byte) bool {
	if !plainBlockSafe(text) {
		return false
	}
	for _, c := range text {
		switch c {
		case ',', '[', ']', '{', '}', ':', '?', '"', '\'':
			return false
		}
	}
	return true
}

// specKeys are the frontmatter keys the spec names (§4, §5, §10, §12, §13); keyName hands out these
// strings instead of a copy per key, so a bundle's Keys do not hold one allocation per key per concept.
var specKeys = func() map[string]string {
	m := map[string]string{}
	for _, k := range []string{"type", "title", "description", "resource", "tags", "sources", "usage_window",
		"generated", "verified", "status", "stale_after", "runtime", "parameters", "computation", "executor",
		"attester", "okf_version", "timestamp", "by", "at", "url", "author", "last_modified", "usage_count",
		"from", "to", "id", "name"} {
		m[k] = k
	}
	return m
}()

// keyName is string(b), shared when b is a key the spec names.
func keyName(b []byte) string {
	if s, ok := specKeys[string(b)]; ok {
		return s
	}
	return string(b)
}

// nextLine returns the line starting at off without its "\n" and the offset of the following line
// (okf's frontmatter split reads lines the same way).
func nextLine(src []byte, off int) (line []byte, next int) {
	i := bytes.IndexByte(src[off:], '\n')
	if i < 0 {
		return src[off:], len(src)
	}
	return src[off : off+i], off + i + 1
}
