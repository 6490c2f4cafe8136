package lint

import (
	"bufio"
	"fmt"
	"io"
	"strings"

	"github.com/okf-tools/okf/okf"
)

// TextPrinter is the default format: one line per finding, `path:line:col: message [CODE]`, the form
// editors, grep and compilers' error parsers understand.
type TextPrinter struct{}

// Print writes one line per finding. A line break inside a message is folded into a space, so a
// finding is never split over two lines that a CI error matcher would read as two; every other
// control character of the bundle's text is escaped (okf.EscapeControl), and the path, which starts
// the line, cannot start a workflow command (okf.EscapeLineStart).
func (TextPrinter) Print(w io.Writer, r *Report) error {
	bw := bufio.NewWriter(w)
	for _, d := range r.Diagnostics {
		d.Pos.Path = okf.EscapeLineStart(r.path(d.Pos.Path))
		d.Message = okf.EscapeControl(oneLine(d.Message))
		fmt.Fprintln(bw, d.String())
	}
	return bw.Flush()
}

// oneLine folds each line break, with the spaces around it, into one space.
func oneLine(s string) string {
	if !strings.ContainsAny(s, "\r\n") {
		return s
	}
	parts := strings.Split(strings.ReplaceAll(s, "\r\n", "\n"), "\n")
	for i, p := range parts {
		parts[i] = strings.TrimSpace(p)
	}
	return strings.Join(parts, " ")
}
