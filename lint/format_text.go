package lint

import (
	"bufio"
	"fmt"
	"io"
)

// TextPrinter is the default format: one line per finding, `path:line:col: message [CODE]`, the form
// editors, grep and compilers' error parsers understand.
type TextPrinter struct{}

// Print writes one line per finding.
func (TextPrinter) Print(w io.Writer, r *Report) error {
	bw := bufio.NewWriter(w)
	for _, d := range r.Diagnostics {
		d.Pos.Path = r.path(d.Pos.Path)
		fmt.Fprintln(bw, d.String())
	}
	return bw.Flush()
}
