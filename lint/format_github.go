package lint

import (
	"bufio"
	"fmt"
	"io"
	"strings"

	"github.com/okf-tools/okf/internal/escape"
	"github.com/okf-tools/okf/okf"
)

// GitHubPrinter writes GitHub Actions workflow commands, so findings show as annotations on the
// pull request: `::error file=…,line=…,col=…,title=CODE (error)::message`; warnings as `::warning`,
// infos as `::notice`. View's floor and grouping apply, and GitHub shows only
// GitHubAnnotationsPerKind annotations of each kind per step: the findings past that are written
// as log lines (the text format's), then the summary, and the last line, a notice, says how many
// are not annotations and where they are.
type GitHubPrinter struct{}

// Print writes one workflow command per finding shown, up to GitHub's cap of each kind.
func (GitHubPrinter) Print(w io.Writer, r *Report) error {
	bw := bufio.NewWriter(w)
	v := newView(r)
	var per [3]int
	for _, it := range v.items {
		per[severityIndex(it.d.Severity)]++
	}
	budget := [3]int{GitHubAnnotationsPerKind, GitHubAnnotationsPerKind, GitHubAnnotationsPerKind}
	capped := per[0] > budget[0] || per[1] > budget[1] || per[2] > budget[2]
	if capped {
		budget[okf.Info]-- // the closing notice is one of the step's notices
	}
	var rest []viewItem
	for _, it := range v.items {
		d := it.d
		k := severityIndex(d.Severity)
		if budget[k] == 0 {
			rest = append(rest, it)
			continue
		}
		budget[k]--
		cmd := "error"
		switch d.Severity {
		case okf.Warning:
			cmd = "warning"
		case okf.Info:
			cmd = "notice"
		}
		props := []string{"file=" + ghProperty(escape.Control(r.path(d.Pos.Path)))}
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
		title := d.Code + " (" + d.Severity.String() + ")"
		msg := d.Message
		if it.group != nil {
			title += ", " + pluralThousands(it.group.files, "file")
			msg += "\n" + strings.TrimSpace(it.group.line())
		}
		props = append(props, "title="+ghProperty(escape.Control(title)))
		fmt.Fprintf(bw, "::%s %s::%s\n", cmd, strings.Join(props, ","), ghData(msg))
	}
	if err := writeTextItems(bw, r, rest); err != nil {
		return err
	}
	if !r.Quiet {
		v.writeSummary(bw, r)
	}
	if capped {
		fmt.Fprintf(bw, "::notice title=okf lint::%s of the %s shown are in this step's log above, not annotations (GitHub shows %d annotations of each kind per step): -f sarif with code scanning shows every finding\n",
			thousands(len(rest)), pluralThousands(len(v.items), "finding"), GitHubAnnotationsPerKind)
	}
	return bw.Flush()
}

// ghData escapes a workflow command's message, as the Actions runner unescapes it (its
// ActionCommand.UnescapeData: %25, %0D, %0A). A line break stays one, as %0A (the annotation shows
// it); every other control character is escaped first (escape.Control), so none reaches the log or
// the annotation.
func ghData(s string) string {
	lines := strings.Split(strings.ReplaceAll(s, "\r\n", "\n"), "\n")
	for i, l := range lines {
		lines[i] = escape.Control(l)
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
