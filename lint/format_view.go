package lint

import (
	"fmt"
	"io"
	"path"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/okf-tools/okf/okf"
)

// SpecURL is the OKF v0.2 specification, whose sections (§4.1…) rules and messages cite.
const SpecURL = "https://github.com/GoogleCloudPlatform/knowledge-catalog/blob/main/okf/SPEC.md"

// What the human formats (text, pretty, github) group: a finding alike in at least GroupMinFiles
// files is shown once, with the count and the first GroupShownFiles files.
const (
	GroupMinFiles   = 5
	GroupShownFiles = 3
)

// GitHubAnnotationsPerKind is how many annotations of one kind (error, warning, notice) GitHub
// shows for a step (actions/toolkit docs/problem-matchers.md: "10 warning annotations, 10 error
// annotations, and 10 notice annotations per step", 50 per job); the rest are dropped silently,
// so -f github writes no more than this many of each kind and lists the others as log lines.
const GitHubAnnotationsPerKind = 10

// view is what a human format shows of a report: the findings at or above the floor, grouped,
// and what it left out, for the summary.
type view struct {
	items   []viewItem
	counts  [3]int  // every finding by severity, shown or not
	hidden  [3]int  // left out by the floor
	grouped int     // groups shown once
	inGroup int     // findings folded into the groups (beyond each group's first)
	section bool    // a shown finding cites a section of the spec (§4.1)
	decided bool    // a shown finding cites a decision (D13)
	files   int     // the files checked (0: not known)
	elapsed float64 // seconds (0: not shown)
}

// viewItem is one finding shown, or the first of a group standing for all of them.
type viewItem struct {
	d     okf.Diagnostic
	group *group
}

// group is the findings alike (alikeKey) across files.
type group struct {
	n         int      // findings
	files     int      // distinct files
	lastPath  string   // the path of the last member counted (members come sorted by path)
	firstPath string   // the first member's path
	more      []string // the positions of the first members in other files than the first, shown
	identical bool     // every member's message is the first's, the path aside
	first     string   // the first member's message, with its path replaced
	shown     bool     // the first member is in the view
}

// severityIndex maps a severity to an index of view's arrays (an unknown one counts as info).
func severityIndex(s okf.Severity) int {
	if s < okf.Error || s > okf.Info {
		return int(okf.Info)
	}
	return int(s)
}

// newView applies the report's floor and grouping to its findings.
func newView(r *Report) *view {
	v := &view{files: r.Files}
	if r.Elapsed > 0 {
		v.elapsed = r.Elapsed.Seconds()
	}
	// The findings shown, as indexes into r.Diagnostics: a copy of each was a hundred bytes.
	shown := make([]int, 0, len(r.Diagnostics))
	for i := range r.Diagnostics {
		d := &r.Diagnostics[i]
		s := severityIndex(d.Severity)
		v.counts[s]++
		if r.UseFloor && d.Severity > r.Floor {
			v.hidden[s]++
			continue
		}
		shown = append(shown, i)
	}
	var keys []*group
	if r.Group {
		groups := map[string]*group{}
		keys = make([]*group, len(shown))
		var kb []byte // the key, built in one buffer; looked up without a string, copied once per group
		for i, at := range shown {
			d := &r.Diagnostics[at]
			own := withoutPath(d.Message, d.Pos.Path)
			kb = append(kb[:0], d.Code...)
			kb = append(kb, 0)
			kb = append(kb, d.Severity.String()...)
			kb = append(kb, 0)
			kb = appendAlike(kb, own)
			g := groups[string(kb)]
			if g == nil {
				g = &group{firstPath: d.Pos.Path, identical: true, first: own}
				groups[string(kb)] = g
			} else if own != g.first {
				g.identical = false
			}
			g.n++
			if d.Pos.Path != g.lastPath {
				g.files++
				g.lastPath = d.Pos.Path
				if d.Pos.Path != g.firstPath && len(g.more) < GroupShownFiles {
					g.more = append(g.more, positionText(r.path(d.Pos.Path), int(d.Pos.Line), int(d.Pos.Col)))
				}
			}
			keys[i] = g
		}
	}
	for i, at := range shown {
		d := r.Diagnostics[at]
		var g *group
		if keys != nil && keys[i].files >= GroupMinFiles {
			g = keys[i]
			if g.shown {
				v.inGroup++
				continue
			}
			g.shown = true
			v.grouped++
		}
		v.items = append(v.items, viewItem{d: d, group: g})
		v.section = v.section || strings.Contains(d.Message, "§")
		v.decided = v.decided || citesDecision(d.Message)
	}
	return v
}

// withoutPath replaces, in a finding's message, the path of its own file and that file's name
// with one placeholder, so that "p1.md links to itself" in p1.md and "p2.md links to itself" in
// p2.md read alike.
func withoutPath(msg, p string) string {
	if p == "" {
		return msg
	}
	base := path.Base(p)
	if !strings.Contains(msg, base) { // nor p, which ends with base: most messages, one scan
		return msg
	}
	msg = strings.ReplaceAll(msg, p, "\x01")
	if base != p && base != "." && base != "/" {
		msg = strings.ReplaceAll(msg, base, "\x01")
	}
	return msg
}

// alikeKey is what two findings of one rule must share to be shown as one: the message with each
// value replaced by one placeholder. A value is a double-quoted string (`"draft"`, with its
// backslash escapes), a bracketed span with no bracket inside (`[a, b]`, `[^id]`), or a word that
// starts with a digit and is not part of another word or a section number (`2025-03-07T03:39:25Z`,
// `2`, `8MiB`, but not the 0.1 of v0.1 nor the 4.1 of §4.1); letters, words and punctuation outside them must be the same. The key is built
// in one pass over the message, so its cost is linear in the message.
func alikeKey(msg string) string {
	return string(appendAlike(make([]byte, 0, len(msg)), msg))
}

// appendAlike appends alikeKey(msg) to b. Text between the bytes that may start a value (a double
// quote, a bracket, a digit) is copied a run at a time: per-rune writes were most of the cost of
// grouping a report of thousands of findings. alikeKeyRef, in the tests, is the rune-at-a-time
// definition this must equal.
func appendAlike(b []byte, msg string) []byte {
	prev := rune(' ') // the last rune written as text, which decides whether a digit starts a value
	for i := 0; i < len(msg); {
		j := i
		for j < len(msg) && msg[j] != '"' && msg[j] != '[' && (msg[j] < '0' || msg[j] > '9') {
			j++
		}
		if j > i {
			b = append(b, msg[i:j]...)
			prev, _ = utf8.DecodeLastRuneInString(msg[i:j])
			if i = j; i == len(msg) {
				return b
			}
		}
		switch c := msg[i]; {
		case c == '"':
			j := i + 1
			for j < len(msg) && msg[j] != '"' {
				if msg[j] == '\\' {
					j++
				}
				j++
			}
			if j >= len(msg) { // no closing quote: the rest is text
				return append(b, msg[i:]...)
			}
			b = append(b, '\x02')
			i, prev = j+1, '"'
			continue
		case c == '[':
			if j := strings.IndexAny(msg[i+1:], "[]"); j >= 0 && msg[i+1+j] == ']' {
				b = append(b, '\x02')
				i, prev = i+j+2, ']'
				continue
			}
		case !isASCIIWord(prev) && !isValueByte(byteOf(prev)) && prev != '§': // a digit
			j := i
			for j < len(msg) && isValueByte(msg[j]) {
				j++
			}
			b = append(b, '\x02')
			i, prev = j, '0'
			continue
		}
		b = append(b, msg[i])
		i, prev = i+1, rune(msg[i])
	}
	return b
}

func isASCIIWord(r rune) bool {
	return r == '_' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z'
}

// byteOf is r as a byte when it is ASCII, else 0.
func byteOf(r rune) byte {
	if r < 0x80 {
		return byte(r)
	}
	return 0
}

// isValueByte is a byte of a value that starts with a digit: a number, a date, a datetime, a size.
func isValueByte(c byte) bool {
	return isASCIIWord(rune(c)) || c == '.' || c == ':' || c == '-' || c == '+' || c == '/'
}

// citesDecision reports whether msg cites one of okf's decisions: D and a number, as a word (D13).
func citesDecision(msg string) bool {
	for i := 0; i+1 < len(msg); i++ {
		if msg[i] != 'D' || msg[i+1] < '0' || msg[i+1] > '9' || i > 0 && isASCIIWord(rune(msg[i-1])) {
			continue
		}
		j := i + 1
		for j < len(msg) && msg[j] >= '0' && msg[j] <= '9' {
			j++
		}
		if j == len(msg) || !isASCIIWord(rune(msg[j])) {
			return true
		}
	}
	return false
}

// groupLine is the line under a group's first finding: how many more there are, in how many
// files, and the first of those files.
func (g *group) line() string {
	var b strings.Builder
	fmt.Fprintf(&b, "  and %s more like it, %s in all", thousands(g.n-1), pluralThousands(g.files, "file"))
	if !g.identical {
		b.WriteString(" (with their own values)")
	}
	if len(g.more) > 0 {
		b.WriteString(": ")
		b.WriteString(strings.Join(g.more, ", "))
		if g.files-1 > len(g.more) {
			b.WriteString(", …")
		}
	}
	return b.String()
}

// writeSummary writes the closing lines of text and pretty (and github, as log lines): the counts
// by severity and the files checked, what the floor hid and how to show it, what was grouped, and
// what the § and D numbers of the findings shown mean. A clean run prints the first line too.
func (v *view) writeSummary(w io.Writer, r *Report) {
	var b strings.Builder
	for i, word := range []string{"error", "warning", "info"} {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(pluralThousands(v.counts[i], word))
		if v.hidden[i] > 0 {
			b.WriteString(" (not shown)")
		}
	}
	if v.files > 0 {
		fmt.Fprintf(&b, "; %s checked", pluralThousands(v.files, "file"))
	}
	if v.elapsed > 0 {
		fmt.Fprintf(&b, " in %.2fs", v.elapsed)
	}
	fmt.Fprintln(w, b.String())
	if h := v.hiddenText(); h != "" {
		// The least severe severity hidden is the floor that shows them all; those at or above
		// --fail-on fail the run although they are not shown, and the summary says so.
		least, kinds, failing := okf.Error, 0, []string{}
		for i, word := range []string{"errors", "warnings", "infos"} {
			if v.hidden[i] > 0 {
				least, kinds = okf.Severity(i), kinds+1
				if okf.Severity(i) <= r.FailOn {
					failing = append(failing, word)
				}
			}
		}
		fails := ""
		switch {
		case len(failing) == kinds:
			fails = fmt.Sprintf(" (they fail this run: --fail-on %s)", r.FailOn)
		case len(failing) > 0:
			fails = fmt.Sprintf(" (the %s fail this run: --fail-on %s)", strings.Join(failing, " and "), r.FailOn)
		}
		fmt.Fprintf(w, "%s not shown%s: --min-severity %s shows them\n", h, fails, least)
	}
	if v.grouped > 0 {
		fmt.Fprintf(w, "%s alike in %d files or more are shown as %s: --no-group shows every one\n",
			pluralThousands(v.grouped+v.inGroup, "finding"), GroupMinFiles, pluralThousands(v.grouped, "group"))
	}
	switch {
	case v.section && v.decided:
		fmt.Fprintf(w, "§ numbers are sections of the OKF v0.2 spec (%s); D numbers are okf's decisions (%s)\n", SpecURL, DecisionsURL)
	case v.section:
		fmt.Fprintf(w, "§ numbers are sections of the OKF v0.2 spec (%s)\n", SpecURL)
	case v.decided:
		fmt.Fprintf(w, "D numbers are okf's decisions (%s)\n", DecisionsURL)
	}
}

// hiddenText lists what the floor left out: "12,720 infos", "3 warnings and 5 infos".
func (v *view) hiddenText() string {
	var parts []string
	for i, word := range []string{"error", "warning", "info"} {
		if v.hidden[i] > 0 {
			parts = append(parts, pluralThousands(v.hidden[i], word))
		}
	}
	return strings.Join(parts, " and ")
}

// thousands writes n with a comma between each group of three digits: 12,720.
func thousands(n int) string {
	s := strconv.Itoa(n)
	neg := strings.HasPrefix(s, "-")
	if neg {
		s = s[1:]
	}
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	if neg {
		s = "-" + s
	}
	return s
}

// pluralThousands writes "1 file" or "12,720 files".
func pluralThousands(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return thousands(n) + " " + word + "s"
}
