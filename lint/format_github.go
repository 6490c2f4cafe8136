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
		props := []string{"file=" + ghProperty(r.path(d.Pos.Path))}
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
		props = append(props, "title="+ghProperty(d.Code))
		fmt.Fprintf(bw, "::%s %s::%s\n", cmd, strings.Join(props, ","), ghData(d.Message))
	}
	return bw.Flush()
}

// ghData escapes a workflow command's message, as the Actions runner unescapes it.
func ghData(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A").Replace(s)
}

// ghProperty escapes a workflow command property value.
func ghProperty(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A", ":", "%3A", ",", "%2C").Replace(s)
}
