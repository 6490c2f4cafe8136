package lint

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/okf-tools/okf/internal/escape"
	"github.com/okf-tools/okf/okf"
)

// excerptWidth bounds the source shown under a pretty finding: at most this many runes of the line,
// a window around the column, with "…" where the line goes on. A 5 MB line holding many findings
// then costs each finding this much output and work, not a copy of the line; the line itself is
// measured once (its rune count and validity), when its first finding is printed.
const excerptWidth = 160

// PrettyPrinter is for people at a terminal: each finding with its severity, then the source line
// with the offending text underlined `^~~~` (measured in runes, as columns are), then a summary.
// Bundle text (paths, messages, the source line) is escaped with escape.Control, so no line of
// output can be started or recoloured by the bundle; the underline counts escaped runes, so it
// still points at the column.
type PrettyPrinter struct{}

// Print writes every finding shown (View's floor and grouping apply) with its source line, then
// the summary. Findings come sorted by path, so each file is read once, when its first finding is
// printed, and dropped at the next file.
func (PrettyPrinter) Print(w io.Writer, r *Report) error {
	bw := bufio.NewWriter(w)
	var src sourceCache
	paint := func(colour, s string) string {
		if !r.Color {
			return s
		}
		return colour + s + ansiReset
	}
	v := newView(r)
	for _, it := range v.items {
		d := it.d
		fmt.Fprintf(bw, "%s: %s: %s [%s]\n", paint(ansiBold, positionText(escape.LineStart(r.path(d.Pos.Path)), int(d.Pos.Line), int(d.Pos.Col))),
			paint(severityColour(d.Severity), d.Severity.String()), escape.Control(oneLine(d.Message)), d.Code)
		src.write(bw, r, d, paint)
		if it.group != nil {
			fmt.Fprintln(bw, escape.Control(it.group.line()))
		}
	}
	if !r.Quiet {
		if len(v.items) > 0 {
			bw.WriteByte('\n')
		}
		v.writeSummary(bw, r)
	}
	return bw.Flush()
}

// sourceCache is the file of the pretty finding being printed, split into lines, and its line
// being printed.
type sourceCache struct {
	path  string
	lines [][]byte
	cur   sourceLine
}

// write writes the source line of a pretty finding with its underline. Findings come sorted by
// path, so each file is read once, when its first finding is printed.
func (c *sourceCache) write(bw *bufio.Writer, r *Report, d okf.Diagnostic, paint func(string, string) string) {
	if d.Pos.Line == 0 || r.ReadFile == nil {
		return
	}
	if d.Pos.Path != c.path {
		c.path, c.lines, c.cur = d.Pos.Path, nil, sourceLine{}
		if src, err := r.ReadFile(d.Pos.Path); err == nil {
			c.lines = bytes.Split(src, []byte{'\n'})
		}
	}
	if int(d.Pos.Line) > len(c.lines) {
		return
	}
	if c.cur.text == nil || c.cur.line != int(d.Pos.Line) {
		c.cur = newSourceLine(int(d.Pos.Line), c.lines[d.Pos.Line-1])
	}
	if !c.cur.valid {
		return
	}
	num := fmt.Sprint(d.Pos.Line)
	gutter := strings.Repeat(" ", len(num))
	text, mark := c.cur.excerpt(int(d.Pos.Col), int(d.End.Line), int(d.End.Col))
	fmt.Fprintf(bw, " %s |\n", gutter)
	fmt.Fprintf(bw, " %s | %s\n", num, text)
	if d.Pos.Col > 0 {
		fmt.Fprintf(bw, " %s | %s\n", gutter, paint(severityColour(d.Severity), mark))
	}
}

// ANSI colours of the pretty format; only okf's own text is coloured, never bundle text, which
// is escaped so it cannot colour anything itself.
const (
	ansiReset  = "\x1b[0m"
	ansiBold   = "\x1b[1m"
	ansiRed    = "\x1b[1;31m"
	ansiYellow = "\x1b[1;33m"
	ansiCyan   = "\x1b[1;36m"
)

func severityColour(s okf.Severity) string {
	switch s {
	case okf.Error:
		return ansiRed
	case okf.Warning:
		return ansiYellow
	}
	return ansiCyan
}

func positionText(path string, line, col int) string {
	switch {
	case line == 0:
		return path
	case col == 0:
		return fmt.Sprintf("%s:%d", path, line)
	}
	return fmt.Sprintf("%s:%d:%d", path, line, col)
}

// sourceLine is one line of a file being printed, measured once for all its findings: whether it is
// valid UTF-8 (an invalid line is not echoed, as its columns mean nothing), its length in runes, and
// a cursor (a rune index and its byte offset) that moves forward as the sorted findings do, so
// finding the column of each finding costs the distance from the previous one, not the whole line.
type sourceLine struct {
	line      int
	text      []byte
	valid     bool
	runes     int
	curRune   int
	curOffset int
}

func newSourceLine(line int, text []byte) sourceLine {
	text = bytes.TrimRight(text, "\r")
	if text == nil {
		text = []byte{}
	}
	return sourceLine{line: line, text: text, valid: utf8.Valid(text), runes: utf8.RuneCount(text)}
}

// offset returns the byte offset of rune index i (0-based, at most the line's rune count).
func (s *sourceLine) offset(i int) int {
	if i < s.curRune {
		s.curRune, s.curOffset = 0, 0
	}
	for s.curRune < i && s.curOffset < len(s.text) {
		_, size := utf8.DecodeRune(s.text[s.curOffset:])
		s.curOffset += size
		s.curRune++
	}
	return s.curOffset
}

// excerpt returns the source shown for a finding at column col (1-based runes) and its underline:
// the whole line when it has at most excerptWidth runes, otherwise a window of excerptWidth runes
// around the column with "…" at a cut end. Every rune is escaped as escape.Control does (the
// [ of ##[ included), except a tab, which is kept (in the underline too) so the marker lines up. The underline is blanks up to
// the column, then `^` and a `~` for every further rune of the offending text, which ends at the
// end position when it is on the same line, at the end of the line when the end is on a later line,
// and otherwise at the next blank; it never runs past the window.
func (s *sourceLine) excerpt(col, endLine, endCol int) (text, mark string) {
	start := min(max(col-1, 0), s.runes) // the column's rune index
	lo, hi := 0, s.runes
	if s.runes > excerptWidth {
		lo = min(max(start-excerptWidth/2, 0), s.runes-excerptWidth)
		hi = lo + excerptWidth
	}
	window := s.text[s.offset(lo):]
	var t, m strings.Builder
	if lo > 0 {
		t.WriteString("…")
		m.WriteByte(' ')
	}
	// width is how many runes the underline covers from the column, -1 up to the next blank.
	width := 1
	switch {
	case endLine == s.line && endCol > col:
		width = endCol - col
	case endLine > s.line:
		width = hi - start
	default:
		width = -1
	}
	marked := 0
	var prev1, prev2 rune // the two runes before r in the window
	for i := lo; i < hi; i++ {
		r, size := utf8.DecodeRune(window)
		window = window[size:]
		var shown string
		switch {
		case r == '\t':
			shown = "\t"
		case r == '[' && prev1 == '#' && prev2 == '#':
			shown = `\x5b` // as escape.Control writes the [ of ##[, a legacy workflow command
		default:
			shown = escape.Control(string(r))
		}
		prev1, prev2 = r, prev1
		t.WriteString(shown)
		n := utf8.RuneCountInString(shown)
		switch {
		case i < start:
			if r == '\t' {
				m.WriteByte('\t')
			} else {
				m.WriteString(strings.Repeat(" ", n))
			}
		case width == -1 && unicode.IsSpace(r):
			width = 0 // the offending text ended at a blank
		case width == -1 || i-start < width:
			if marked == 0 {
				m.WriteByte('^')
				n--
			}
			m.WriteString(strings.Repeat("~", n))
			marked++
		}
	}
	if marked == 0 {
		m.WriteByte('^') // a column at the end of the line, or an empty offending text
	}
	if hi < s.runes {
		t.WriteString("…")
	}
	return t.String(), m.String()
}

// underline returns the marker line for a whole line of text, as excerpt does (for tests).
func underline(text string, col, endLine, endCol, line int) string {
	s := newSourceLine(line, []byte(text))
	_, mark := s.excerpt(col, endLine, endCol)
	return mark
}
