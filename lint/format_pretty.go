package lint

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"strings"
	"unicode"
	"unicode/utf8"
)

// PrettyPrinter is for people at a terminal: each finding with its severity, then the source line
// with the offending text underlined `^~~~` (measured in runes, as columns are), then a summary.
type PrettyPrinter struct{}

// Print writes every finding with its source line. Findings come sorted by path, so each file is
// read once, when its first finding is printed, and dropped at the next file.
func (PrettyPrinter) Print(w io.Writer, r *Report) error {
	bw := bufio.NewWriter(w)
	var (
		curPath string
		lines   [][]byte
	)
	for _, d := range r.Diagnostics {
		fmt.Fprintf(bw, "%s: %s: %s [%s]\n", positionText(r.path(d.Pos.Path), d.Pos.Line, d.Pos.Col), d.Severity, d.Message, d.Code)
		if d.Pos.Line == 0 || r.ReadFile == nil {
			continue
		}
		if d.Pos.Path != curPath {
			curPath, lines = d.Pos.Path, nil
			if src, err := r.ReadFile(d.Pos.Path); err == nil {
				lines = bytes.Split(src, []byte{'\n'})
			}
		}
		if d.Pos.Line > len(lines) {
			continue
		}
		text := strings.TrimRight(string(lines[d.Pos.Line-1]), "\r")
		if !utf8.ValidString(text) {
			continue
		}
		num := fmt.Sprint(d.Pos.Line)
		gutter := strings.Repeat(" ", len(num))
		fmt.Fprintf(bw, " %s |\n", gutter)
		fmt.Fprintf(bw, " %s | %s\n", num, text)
		if d.Pos.Col > 0 {
			fmt.Fprintf(bw, " %s | %s\n", gutter, underline(text, d.Pos.Col, d.End.Line, d.End.Col, d.Pos.Line))
		}
	}
	if len(r.Diagnostics) > 0 {
		e, wn, i := r.Counts()
		fmt.Fprintf(bw, "\n%s, %s, %s\n", plural(e, "error"), plural(wn, "warning"), plural(i, "info"))
	}
	return bw.Flush()
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

// underline returns the marker line for text: blanks up to column col (tabs kept, so the marker
// lines up), then `^` and a `~` for every further rune of the offending text. The text ends at the
// end position when it is on the same line, at the end of the line when the end is on a later line,
// and otherwise at the next blank.
func underline(text string, col, endLine, endCol, line int) string {
	runes := []rune(text)
	start := col - 1
	if start > len(runes) {
		start = len(runes)
	}
	var b strings.Builder
	for _, r := range runes[:start] {
		if r == '\t' {
			b.WriteByte('\t')
		} else {
			b.WriteByte(' ')
		}
	}
	width := 1
	switch {
	case endLine == line && endCol > col:
		width = endCol - col
	case endLine > line:
		width = len(runes) - start
	default:
		width = 0
		for _, r := range runes[start:] {
			if unicode.IsSpace(r) {
				break
			}
			width++
		}
	}
	width = min(width, len(runes)-start)
	b.WriteByte('^')
	if width > 1 {
		b.WriteString(strings.Repeat("~", width-1))
	}
	return b.String()
}
