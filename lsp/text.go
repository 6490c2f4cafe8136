package lsp

import (
	"sort"
	"unicode/utf16"
	"unicode/utf8"
)

// doc is a file's text with its line starts, for converting between byte offsets, okf's positions
// (1-based lines, columns in characters) and the protocol's (0-based lines, columns in the
// negotiated encoding: UTF-16 code units unless the client offers UTF-32 or UTF-8).
type doc struct {
	text   string
	starts []int
	enc    string // "utf-16", "utf-32" or "utf-8"
}

func newDoc(text, enc string) *doc {
	d := &doc{text: text, starts: []int{0}, enc: enc}
	for i := 0; i < len(text); i++ {
		if text[i] == '\n' {
			d.starts = append(d.starts, i+1)
		}
	}
	return d
}

// line returns line l's text (0-based), without its line break.
func (d *doc) line(l int) string {
	if l < 0 || l >= len(d.starts) {
		return ""
	}
	end := len(d.text)
	if l+1 < len(d.starts) {
		end = d.starts[l+1] - 1
	}
	s := d.text[d.starts[l]:end]
	if n := len(s); n > 0 && s[n-1] == '\r' {
		s = s[:n-1]
	}
	return s
}

// units is how many protocol columns s spans.
func (d *doc) units(s string) int {
	switch d.enc {
	case "utf-8":
		return len(s)
	case "utf-32":
		return utf8.RuneCountInString(s)
	}
	n := 0
	for _, r := range s {
		n += max(1, utf16.RuneLen(r))
	}
	return n
}

// pos converts a byte offset to a protocol position.
func (d *doc) pos(off int) position {
	off = max(0, min(off, len(d.text)))
	l := sort.Search(len(d.starts), func(i int) bool { return d.starts[i] > off }) - 1
	return position{Line: l, Character: d.units(d.text[d.starts[l]:off])}
}

// offset converts a protocol position to a byte offset (clamped to the line).
func (d *doc) offset(p position) int {
	if p.Line < 0 {
		return 0
	}
	if p.Line >= len(d.starts) {
		return len(d.text)
	}
	line := d.line(p.Line)
	start := d.starts[p.Line]
	n := 0
	for i, r := range line {
		if n >= p.Character {
			return start + i
		}
		switch d.enc {
		case "utf-8":
			n += utf8.RuneLen(r)
		case "utf-32":
			n++
		default:
			n += max(1, utf16.RuneLen(r))
		}
	}
	return start + len(line)
}

// okfOffset converts okf's position (1-based line, 1-based column in characters) to a byte offset.
func (d *doc) okfOffset(line, col int) int {
	l := line - 1
	if l < 0 {
		return 0
	}
	if l >= len(d.starts) {
		return len(d.text)
	}
	s := d.line(l)
	off := d.starts[l]
	c := 1
	for i := range s {
		if c >= col {
			return off + i
		}
		c++
	}
	return off + len(s)
}

// okfPos converts okf's position to a protocol position.
func (d *doc) okfPos(line, col int) position {
	if line < 1 {
		return position{}
	}
	if col < 1 {
		col = 1
	}
	return d.pos(d.okfOffset(line, col))
}

// wordEnd is the offset where the word (a run of characters that are not spaces) at off ends, or
// the end of its line: a finding's range when okf gives only its start.
func (d *doc) wordEnd(off int) int {
	i := off
	for i < len(d.text) && d.text[i] != '\n' && d.text[i] != '\r' && d.text[i] != ' ' && d.text[i] != '\t' {
		i++
	}
	if i == off { // at a space or an empty line: one character, or to the line's end
		for i < len(d.text) && d.text[i] != '\n' {
			i++
		}
	}
	return i
}
