package generate

import (
	"strings"
	"time"

	"github.com/okf-tools/okf/okf"
)

// LogTitle heads a log.md that gen creates (§9).
const LogTitle = "# Update Log"

// AddLogEntries adds items (Markdown list lines without the "* ") to the date group of day in a
// log.md (§9, D8): into that day's group when there is one, else as a new `## YYYY-MM-DD` group
// placed so that groups stay newest first. old is nil when there is no log yet.
func AddLogEntries(old []byte, day time.Time, items []string) []byte {
	date := day.UTC().Format("2006-01-02")
	nl := okf.Newline(old) // the log's own line ends, for the lines added
	var entries strings.Builder
	for _, it := range items {
		entries.WriteString("* " + it + nl)
	}
	if old == nil {
		return []byte(LogTitle + "\n\n## " + date + "\n\n" + entries.String())
	}
	lines := strings.SplitAfter(string(old), "\n")
	if lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	if n := len(lines); n > 0 && !strings.HasSuffix(lines[n-1], "\n") {
		lines[n-1] += nl
	}
	fence := ""
	for i, l := range lines {
		if fence != "" {
			if closesFence(strings.TrimSpace(l), fence) {
				fence = ""
			}
			continue
		}
		if f := openingFence(l); f != "" {
			fence = f
			continue
		}
		if !strings.HasPrefix(l, "## ") {
			continue
		}
		d, _, ok := okf.ParseLogDate(strings.TrimSpace(l[3:]))
		if !ok {
			continue
		}
		g := d.Format("2006-01-02")
		if g > date {
			continue
		}
		if g == date {
			// Append to the group: after its last non-blank line.
			last := i
			for j := i + 1; j < len(lines) && !strings.HasPrefix(lines[j], "#"); j++ {
				if strings.TrimSpace(lines[j]) != "" {
					last = j
				}
			}
			add := entries.String()
			if last == i {
				add = nl + add
			}
			return []byte(strings.Join(lines[:last+1], "") + add + strings.Join(lines[last+1:], ""))
		}
		group := "## " + date + nl + nl + entries.String() + nl
		return []byte(strings.Join(lines[:i], "") + group + strings.Join(lines[i:], ""))
	}
	text := strings.TrimRight(strings.Join(lines, ""), "\r\n")
	if text != "" {
		text += nl + nl
	}
	return []byte(text + "## " + date + nl + nl + entries.String())
}
