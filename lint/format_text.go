package lint

import (
	"bufio"
	"io"
	"strconv"
	"strings"

	"github.com/okf-tools/okf/internal/escape"
	"github.com/okf-tools/okf/okf"
)

// TextPrinter is the default format: one line per finding, `path:line:col: severity: message
// [CODE]`, the form editors, grep and compilers' error parsers understand (gcc's and Go vet's), then
// a summary (View's floor and grouping apply).
type TextPrinter struct{}

// Print writes one line per finding, and under the first finding of a group a line indented by two
// spaces, which error parsers do not read as a finding. A line break inside a message is folded
// into a space, so a finding is never split over two lines that a CI error matcher would read as
// two; every other control character of the bundle's text is escaped (escape.Control), and the
// path, which starts the line, cannot start a workflow command (escape.LineStart).
func (TextPrinter) Print(w io.Writer, r *Report) error {
	bw := bufio.NewWriter(w)
	v := newView(r)
	if err := writeTextItems(bw, r, v.items); err != nil {
		return err
	}
	if !r.Quiet {
		if len(v.items) > 0 {
			bw.WriteByte('\n')
		}
		v.writeSummary(bw, r)
	}
	return bw.Flush()
}

// writeTextItems writes findings as the text format does (the github format's log lines too).
func writeTextItems(bw *bufio.Writer, r *Report, items []viewItem) error {
	var line []byte
	// Findings come sorted by path: a path is shown and escaped once for its run of findings.
	lastPath, shown := "", ""
	for i, it := range items {
		d := it.d
		if i == 0 || d.Pos.Path != lastPath {
			lastPath, shown = d.Pos.Path, escape.LineStart(r.path(d.Pos.Path))
		}
		d.Pos.Path = shown
		d.Message = escape.Control(oneLine(d.Message))
		line = appendDiagnostic(line[:0], d)
		if _, err := bw.Write(line); err != nil {
			return err
		}
		if it.group != nil {
			bw.WriteString(escape.Control(it.group.line()))
			bw.WriteByte('\n')
		}
	}
	return nil
}

// appendDiagnostic appends `path:line:col: severity: message [CODE]` and a line break, without fmt.
func appendDiagnostic(b []byte, d okf.Diagnostic) []byte {
	b = append(b, d.Pos.Path...)
	if d.Pos.Line != 0 {
		b = append(b, ':')
		b = strconv.AppendInt(b, int64(d.Pos.Line), 10)
		if d.Pos.Col != 0 {
			b = append(b, ':')
			b = strconv.AppendInt(b, int64(d.Pos.Col), 10)
		}
	}
	b = append(b, ": "...)
	b = append(b, d.Severity.String()...)
	b = append(b, ": "...)
	b = append(b, d.Message...)
	b = append(b, " ["...)
	b = append(b, d.Code...)
	return append(b, "]\n"...)
}

// oneLine folds each line break, with the spaces around it, into one space.
func oneLine(s string) string {
	if strings.IndexByte(s, '\n') < 0 && strings.IndexByte(s, '\r') < 0 {
		return s
	}
	parts := strings.Split(strings.ReplaceAll(s, "\r\n", "\n"), "\n")
	for i, p := range parts {
		parts[i] = strings.TrimSpace(p)
	}
	return strings.Join(parts, " ")
}
