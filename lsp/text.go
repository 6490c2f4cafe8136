package lsp

import (
	"sort"
	"sync/atomic"
	"unicode/utf16"
	"unicode/utf8"
)

// doc is a file's text with its line starts, for converting between byte offsets, okf's positions
// (1-based lines, columns in characters) and the protocol's (0-based lines, columns in the
// negotiated encoding: UTF-16 code units unless the client offers UTF-32 or UTF-8).
//
// A conversion reads its line from the nearest mark before it, not from the line's start: a
// line of megabytes with a thousand findings on it (one line is all a hostile file needs) would
// otherwise cost its length per finding, on every keystroke.
type doc struct {
	text   string
	starts []int
	enc    string // "utf-16", "utf-32" or "utf-8"

	marks  []mark // every markEvery bytes of lines longer than that, built on first need
	marked bool
}

// mark is a point of a long line: its byte offset, and the characters and protocol units between
// its line's start and it.
type mark struct{ off, chars, units int }

// markEvery is the spacing of marks, the most a conversion reads of a line beyond what it asks.
const markEvery = 1024

// docScanned counts the bytes conversions read (tests check the bound).
var docScanned atomic.Int64

func newDoc(text, enc string) *doc {
	d := &doc{text: text, starts: []int{0}, enc: enc}
	for i := 0; i < len(text); i++ {
		if text[i] == '\n' {
			d.starts = append(d.starts, i+1)
		}
	}
	return d
}

// lineEnd is the offset of line l's line break (or the text's end).
func (d *doc) lineEnd(l int) int {
	if l+1 < len(d.starts) {
		return d.starts[l+1] - 1
	}
	return len(d.text)
}

// line returns line l's text (0-based), without its line break.
func (d *doc) line(l int) string {
	if l < 0 || l >= len(d.starts) {
		return ""
	}
	s := d.text[d.starts[l]:d.lineEnd(l)]
	if n := len(s); n > 0 && s[n-1] == '\r' {
		s = s[:n-1]
	}
	return s
}

// width is how many protocol columns the rune r, written in size bytes, spans.
func (d *doc) width(r rune, size int) int {
	switch d.enc {
	case "utf-8":
		return size
	case "utf-32":
		return 1
	}
	return max(1, utf16.RuneLen(r))
}

// units is how many protocol columns s spans.
func (d *doc) units(s string) int {
	docScanned.Add(int64(len(s)))
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

// lineMarks are the marks of line l (none for a line shorter than markEvery).
func (d *doc) lineMarks(l int) []mark {
	start, end := d.starts[l], d.lineEnd(l)
	if end-start <= markEvery {
		return nil
	}
	if !d.marked {
		d.marked = true
		for i := range d.starts {
			s, e := d.starts[i], d.lineEnd(i)
			if e-s <= markEvery {
				continue
			}
			chars, units, last := 0, 0, s
			for j := s; j < e; {
				r, size := utf8.DecodeRuneInString(d.text[j:e])
				if j-last >= markEvery {
					d.marks = append(d.marks, mark{j, chars, units})
					last = j
				}
				chars++
				units += d.width(r, size)
				j += size
			}
		}
	}
	lo := sort.Search(len(d.marks), func(i int) bool { return d.marks[i].off >= start })
	hi := sort.Search(len(d.marks), func(i int) bool { return d.marks[i].off > end })
	return d.marks[lo:hi]
}

// from is the last mark of line l that before(mark) accepts (marks are in order, before true up
// to some point), else the line's start.
func (d *doc) from(l int, before func(mark) bool) mark {
	ms := d.lineMarks(l)
	i := sort.Search(len(ms), func(i int) bool { return !before(ms[i]) })
	if i == 0 {
		return mark{off: d.starts[l]}
	}
	return ms[i-1]
}

// pos converts a byte offset to a protocol position.
func (d *doc) pos(off int) position {
	off = max(0, min(off, len(d.text)))
	l := sort.Search(len(d.starts), func(i int) bool { return d.starts[i] > off }) - 1
	m := d.from(l, func(m mark) bool { return m.off <= off })
	return position{Line: l, Character: m.units + d.units(d.text[m.off:off])}
}

// offset converts a protocol position to a byte offset (clamped to the line).
func (d *doc) offset(p position) int {
	if p.Line < 0 {
		return 0
	}
	if p.Line >= len(d.starts) {
		return len(d.text)
	}
	end := d.starts[p.Line] + len(d.line(p.Line))
	m := d.from(p.Line, func(m mark) bool { return m.units <= p.Character && m.off <= end })
	n := m.units
	for i := m.off; i < end; {
		if n >= p.Character {
			docScanned.Add(int64(i - m.off))
			return i
		}
		r, size := utf8.DecodeRuneInString(d.text[i:end])
		n += d.width(r, size)
		i += size
	}
	docScanned.Add(int64(end - m.off))
	return end
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
	end := d.starts[l] + len(d.line(l))
	m := d.from(l, func(m mark) bool { return m.chars < col && m.off <= end })
	c := m.chars + 1
	for i := m.off; i < end; {
		if c >= col {
			docScanned.Add(int64(i - m.off))
			return i
		}
		_, size := utf8.DecodeRuneInString(d.text[i:end])
		c++
		i += size
	}
	docScanned.Add(int64(end - m.off))
	return end
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

// maxWord is the most of a line wordEnd reads: a finding's range on a line of megabytes without a
// space ends there, not at the line's end (a thousand findings would read it a thousand times).
const maxWord = 256

// wordEnd is the offset where the word (a run of characters that are not spaces) at off ends, or
// the end of its line: a finding's range when okf gives only its start.
func (d *doc) wordEnd(off int) int {
	limit := min(len(d.text), off+maxWord)
	i := off
	for i < limit && d.text[i] != '\n' && d.text[i] != '\r' && d.text[i] != ' ' && d.text[i] != '\t' {
		i++
	}
	if i == off { // at a space or an empty line: one character, or to the line's end
		for i < limit && d.text[i] != '\n' {
			i++
		}
	}
	for i > off && i < len(d.text) && !utf8.RuneStart(d.text[i]) {
		i-- // not inside a character
	}
	return i
}
