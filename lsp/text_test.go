package lsp

import (
	"math/rand/v2"
	"strings"
	"testing"
	"unicode/utf16"
	"unicode/utf8"
)

// The conversions as first written, reading each line from its start: the reference the marks
// must agree with.
func refPos(d *doc, off int) position {
	off = max(0, min(off, len(d.text)))
	l := 0
	for l+1 < len(d.starts) && d.starts[l+1] <= off {
		l++
	}
	return position{Line: l, Character: refUnits(d.enc, d.text[d.starts[l]:off])}
}

func refUnits(enc, s string) int {
	switch enc {
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

func refOffset(d *doc, p position) int {
	if p.Line < 0 {
		return 0
	}
	if p.Line >= len(d.starts) {
		return len(d.text)
	}
	line, start, n := d.line(p.Line), d.starts[p.Line], 0
	for i := 0; i < len(line); {
		if n >= p.Character {
			return start + i
		}
		r, size := utf8.DecodeRuneInString(line[i:])
		n += refUnits(d.enc, line[i:i+size])
		_ = r
		i += size
	}
	return start + len(line)
}

func refOKFOffset(d *doc, line, col int) int {
	l := line - 1
	if l < 0 {
		return 0
	}
	if l >= len(d.starts) {
		return len(d.text)
	}
	s, c := d.line(l), 1
	for i := range s {
		if c >= col {
			return d.starts[l] + i
		}
		c++
	}
	return d.starts[l] + len(s)
}

// TestDocConversionsAgree: with marks, every conversion gives what reading the line from its start
// gives, on lines long and short, with multi-byte characters, surrogate pairs, invalid bytes and
// CRLF, in each encoding.
func TestDocConversionsAgree(t *testing.T) {
	pieces := []string{"a", "é", "😀", "\xff", "\r\n", "\n", " ", "漢", "\r"}
	rng := rand.New(rand.NewPCG(1, 2))
	for round := 0; round < 30; round++ {
		var b strings.Builder
		n := rng.IntN(6000)
		if round%3 == 0 {
			n = rng.IntN(40)
		}
		for i := 0; i < n; i++ {
			p := pieces[rng.IntN(len(pieces))]
			if (p == "\n" || p == "\r\n") && rng.IntN(20) != 0 {
				p = "a" // mostly long lines
			}
			b.WriteString(p)
		}
		text := b.String()
		for _, enc := range []string{"utf-16", "utf-32", "utf-8"} {
			d := newDoc(text, enc)
			for k := 0; k < 300; k++ {
				off := rng.IntN(len(text) + 2)
				if got, want := d.pos(off), refPos(d, off); got != want {
					t.Fatalf("%s round %d: pos(%d) = %+v, want %+v", enc, round, off, got, want)
				}
				p := position{Line: rng.IntN(len(d.starts)+1) - 1, Character: rng.IntN(7000)}
				if got, want := d.offset(p), refOffset(d, p); got != want {
					t.Fatalf("%s round %d: offset(%+v) = %d, want %d", enc, round, p, got, want)
				}
				line, col := rng.IntN(len(d.starts)+2), rng.IntN(7000)
				if got, want := d.okfOffset(line, col), refOKFOffset(d, line, col); got != want {
					t.Fatalf("%s round %d: okfOffset(%d, %d) = %d, want %d", enc, round, line, col, got, want)
				}
			}
		}
	}
}

// TestDocConversionsBounded: a thousand findings at the end of a 6 MB line are converted reading
// a bounded part of the line each, not the line from its start (64 s in okf lsp before).
func TestDocConversionsBounded(t *testing.T) {
	text := "---\ntype: Note\n---\n" + strings.Repeat("é", 3<<20) + strings.Repeat(" [x](nope.md)", 1000) + "\n"
	d := newDoc(text, "utf-16")
	lineStart := d.starts[3]
	before := docScanned.Load()
	for i := 0; i < 1000; i++ {
		col := 3<<20 + 13*i + 2
		off := d.okfOffset(4, col)
		if off != lineStart+6<<20+13*i+1 {
			t.Fatalf("okfOffset(4, %d) = %d, want %d", col, off, lineStart+6<<20+13*i+1)
		}
		p := d.pos(off)
		if p.Line != 3 || p.Character != col-1 {
			t.Fatalf("pos(%d) = %+v, want line 3 character %d", off, p, col-1)
		}
		if back := d.offset(p); back != off {
			t.Fatalf("offset(%+v) = %d, want %d", p, back, off)
		}
		if e := d.wordEnd(off); e-off > maxWord {
			t.Fatalf("wordEnd read %d bytes", e-off)
		}
	}
	// Building the marks reads the text once; each conversion at most a mark's spacing.
	if got, limit := docScanned.Load()-before, int64(len(text)+1000*3*2*markEvery); got > limit {
		t.Errorf("conversions read %d bytes, want at most %d", got, limit)
	}
}
