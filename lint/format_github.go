package lint

import (
	"bufio"
	"fmt"
	"io"
	"strings"

	"github.com/okf-tools/okf/okf"
)

// GitHubPrinter writes GitHub Actions workflow commands, so findings show as annotations on the
// pull request: `::error file=…,line=…,col=…,title=CODE::message`; warnings as `::warning`, infos as
// `::notice`.
type GitHubPrinter struct{}

// Print writes one workflow command per finding.
func (GitHubPrinter) Print(w io.Writer, r *Report) error {
	bw := bufio.NewWriter(w)
	for _, d := range r.Diagnostics {
		cmd := "error"
		switch d.Severity {
		case okf.Warning:
			cmd = "warning"
		case okf.Info:
			cmd = "notice"
		}
		props := []string{"file=" + ghProperty(okf.EscapeControl(r.path(d.Pos.Path)))}
		if d.Pos.Line > 0 {
			props = append(props, fmt.Sprintf("line=%d", d.Pos.Line))
			if d.Pos.Col > 0 {
				props = append(props, fmt.Sprintf("col=%d", d.Pos.Col))
			}
			if d.End.Line > 0 {
				props = append(props, fmt.Sprintf("endLine=%d", d.End.Line))
				if d.End.Col > 0 && d.End.Line == d.Pos.Line {
					props = append(props, fmt.Sprintf("endColumn=%d", d.End.Col))
				}
			}
		}
		props = append(props, "title="+ghProperty(okf.EscapeControl(d.Code)))
		fmt.Fprintf(bw, "::%s %s::%s\n", cmd, strings.Join(props, ","), ghData(d.Message))
	}
	return bw.Flush()
}

// ghData escapes a workflow command's message, as the Actions runner unescapes it (its
// ActionCommand.UnescapeData: %25, %0D, %0A). A line break stays one, as %0A (the annotation shows
// it); every other control character is escaped first (okf.EscapeControl), so none reaches the log or
// the annotation.
func ghData(s string) string {
	lines := strings.Split(strings.ReplaceAll(s, "\r\n", "\n"), "\n")
	for i, l := range lines {
		lines[i] = okf.EscapeControl(l)
	}
	return ghDataEscapes.Replace(strings.Join(lines, "\n"))
}

// The runner's escapes, built once (a Replacer builds its table on first use, which cost a
// third of -f github on 17,000 findings when every call made a new one).
var (
	ghDataEscapes     = strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A")
	ghPropertyEscapes = strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A", ":", "%3A", ",", "%2C")
)

// ghProperty escapes a workflow command property value, as the runner unescapes it
// (UnescapeProperty: %25, %0D, %0A, %3A, %2C). With `:` and `,` escaped, a value can end neither the
// property list nor the command; callers escape control characters first.
func ghProperty(s string) string {
	return ghPropertyEscapes.Replace(s)
}
