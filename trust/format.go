package trust

import (
	"fmt"
	"io"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/okf-tools/okf/internal/escape"
	"github.com/okf-tools/okf/internal/suggest"
)

// Formats lists the output formats, in the order the help text shows them.
var Formats = []string{"text", "markdown", "json", "html"}

// WriteOptions tune a formatter.
type WriteOptions struct {
	// Color turns on ANSI colour in the text format (the CLI sets it only for a terminal without
	// NO_COLOR).
	Color bool
	// Top is how many review-queue items text, markdown and html show (0: all). The html page
	// keeps the rest behind a "show all" button; json always holds the whole queue.
	Top int
	// MaxChars caps the markdown report at that many characters, counted as UTF-16 code units
	// (see mdBudget; 0: no limit). See DefaultMaxChars.
	MaxChars int
	// FullCommand is the command the markdown report names for what it leaves out.
	FullCommand string
	// Width is the terminal width the text format fits its lines into, cutting with an ellipsis
	// (0: no limit, as when stdout is not a terminal).
	Width int
}

// Write prints r in the named format.
func Write(w io.Writer, r *Report, format string, o WriteOptions) error {
	switch format {
	case "text":
		return writeText(w, r, o)
	case "markdown":
		return writeMarkdown(w, r, o)
	case "json":
		return writeJSON(w, r)
	case "html":
		return writeHTML(w, r, o)
	}
	return suggest.UnknownValue("format", format, Formats)
}

// approxMark follows every value read conservatively from a date-only or offset-less timestamp.
const approxMark = "~"

// approxLegend explains approxMark; every format prints it when a listed value carries the mark.
const approxLegend = "~ approximate: a date-only timestamp was read as 00:00 UTC of that day, an offset-less one as UTC (D10)"

// when prints an instant in UTC, marked when approximate.
func when(t time.Time, approx bool) string {
	if t.IsZero() {
		return "-"
	}
	s := t.UTC().Format(time.RFC3339)
	if approx {
		s += approxMark
	}
	return s
}

// staleText prints the stale_after column: the instant, and "stale"/"expiring" marks.
func staleText(c *Concept) string {
	if c.StaleAfter == nil {
		return "-"
	}
	return when(c.StaleAfter.At, c.StaleAfter.Approximate)
}

// flags are the short marks of a concept row, in a fixed order.
func flags(c *Concept) []string {
	var fs []string
	switch c.Freshness {
	case FreshStale:
		fs = append(fs, "stale")
	case FreshExpiring:
		fs = append(fs, "expiring")
	}
	if c.ChangedSinceVerified {
		fs = append(fs, "changed-since-verified")
	}
	if len(c.Upstream) > 0 {
		fs = append(fs, "lineage")
	}
	if c.InCycle {
		fs = append(fs, "cycle")
	}
	return fs
}

// chainText prints a lineage chain.
func chainText(chain []string) string { return strings.Join(chain, " -> ") }

// ANSI colours for the text format.
const (
	red    = "\x1b[31m"
	green  = "\x1b[32m"
	yellow = "\x1b[33m"
	bold   = "\x1b[1m"
	reset  = "\x1b[0m"
)

// tierColour and freshColour pick the colour a value is printed in.
func tierColour(t string) string {
	switch t {
	case "human-reviewed":
		return green
	case "machine-confirmed":
		return yellow
	}
	return red
}

// cell is one table cell: plain text (measured) and an optional colour.
type cell struct {
	text, colour string
}

// table prints rows as aligned columns. Widths are measured in runes on the plain text, so colour
// codes never shift the columns. With width > 0 (a terminal) a table wider than the line is printed
// as records instead (tableRecords): cutting its cells to fit would lose the IDs, actors and dates a
// reviewer reads it for.
func table(w io.Writer, indent string, colour bool, width int, header []string, rows [][]cell) {
	widths := make([]int, len(header))
	for i, h := range header {
		widths[i] = utf8.RuneCountInString(h)
	}
	for _, r := range rows {
		for i, c := range r {
			widths[i] = max(widths[i], utf8.RuneCountInString(c.text))
		}
	}
	total := utf8.RuneCountInString(indent) + 2*(len(widths)-1)
	for _, x := range widths {
		total += x
	}
	if width > 0 && total > width {
		tableRecords(w, indent, colour, header, rows)
		return
	}
	line := func(cells []cell) {
		var b strings.Builder
		b.WriteString(indent)
		for i, c := range cells {
			text := c.text
			if colour && c.colour != "" {
				text = c.colour + text + reset
			}
			b.WriteString(text)
			if i < len(cells)-1 {
				b.WriteString(strings.Repeat(" ", widths[i]-utf8.RuneCountInString(c.text)+2))
			}
		}
		fmt.Fprintln(w, b.String())
	}
	hs := make([]cell, len(header))
	for i, h := range header {
		hs[i] = cell{text: h, colour: bold}
	}
	line(hs)
	for _, r := range rows {
		line(r)
	}
}

// tableRecords prints each row of a table too wide for the terminal as a record: its first cell
// (what the row is about) on a line of its own; then the cells of its short columns (no cell over
// 18 runes: counts, status, tier) named by their headers together on one line; then each cell of a
// long column (actors and dates) on a line of its own. "-" cells are left out. The fitWriter wraps
// what is still longer than the line, at a space or after a slash, so nothing is cut.
func tableRecords(w io.Writer, indent string, colour bool, header []string, rows [][]cell) {
	paint := func(c cell) string {
		if colour && c.colour != "" {
			return c.colour + c.text + reset
		}
		return c.text
	}
	keys := make([]string, len(header))
	short := make([]bool, len(header))
	for i, h := range header {
		keys[i] = strings.ToLower(h)
		short[i] = true
		for _, r := range rows {
			short[i] = short[i] && utf8.RuneCountInString(r[i].text) <= 18
		}
	}
	keyW := 0
	for i := 1; i < len(keys); i++ {
		if !short[i] {
			keyW = max(keyW, utf8.RuneCountInString(keys[i]))
		}
	}
	for _, r := range rows {
		first := r[0]
		if colour && first.colour == "" {
			first.colour = bold
		}
		fmt.Fprintf(w, "%s%s\n", indent, paint(first))
		var pairs []string
		for i := 1; i < len(r); i++ {
			if c := r[i]; short[i] && c.text != "-" && c.text != "" {
				// No-break spaces: a name stays whole and with its value.
				pairs = append(pairs, strings.ReplaceAll(keys[i], " ", "\u00a0")+"\u00a0"+paint(c))
			}
		}
		if len(pairs) > 0 {
			fmt.Fprintf(w, "%s  %s\n", indent, strings.Join(pairs, ", "))
		}
		for i := 1; i < len(r); i++ {
			if c := r[i]; !short[i] && c.text != "-" && c.text != "" {
				fmt.Fprintf(w, "%s  %s%s  %s\n", indent, keys[i], strings.Repeat(" ", keyW-utf8.RuneCountInString(keys[i])), paint(c))
			}
		}
	}
}

// truncate shortens s to n runes with an ellipsis.
func truncate(s string, n int) string {
	if n <= 0 || utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return string(r[:n-1]) + "…"
}

// fitWriter wraps every line longer than width visible runes (ANSI colour sequences, which only
// okf writes, take no width), so a line never wraps in the terminal where it would break the
// indentation, and nothing is cut away: at the last space that fits, else after the last slash
// (a long ID), else anywhere; the rest goes on continuation lines indented four more than the line.
type fitWriter struct {
	w     io.Writer
	width int
	line  []byte
}

func (f *fitWriter) Write(p []byte) (int, error) {
	for _, c := range p {
		f.line = append(f.line, c)
		if c == '\n' {
			if _, err := f.w.Write(fitLine(f.line[:len(f.line)-1], f.width)); err != nil {
				return 0, err
			}
			if _, err := f.w.Write([]byte{'\n'}); err != nil {
				return 0, err
			}
			f.line = f.line[:0]
		}
	}
	return len(p), nil
}

// fitLine wraps line into lines of at most width visible runes (see fitWriter), joined by "\n".
// Each piece is scanned once, from where the last ended: linear in the line's length.
func fitLine(line []byte, width int) []byte {
	s := string(line)
	lead := len(s) - len(strings.TrimLeft(s, " "))
	hang := strings.Repeat(" ", min(lead+4, width/2))
	var out strings.Builder
	for pos, first := 0, true; ; first = false {
		avail, prefix := width, 0 // the piece's room, and its own leading spaces (the line's indentation)
		if first {
			prefix = lead
		} else {
			out.WriteString(hang)
			avail = width - len(hang)
		}
		// A break leaves at least a third of the line on it: "1." alone would read as an empty item.
		enough := prefix + avail/3
		visible, cut, space, slash := 0, -1, -1, -1
		for i := pos; i < len(s); {
			if s[i] == 0x1b {
				j := strings.IndexByte(s[i:], 'm')
				if j < 0 {
					break
				}
				i += j + 1
				continue
			}
			if visible == avail {
				cut = i
				break
			}
			_, size := utf8.DecodeRuneInString(s[i:])
			if visible >= enough {
				switch s[i] {
				case ' ':
					space = i
				case '/':
					slash = i + 1
				}
			}
			visible++
			i += size
		}
		if cut < 0 || !visibleFrom(s, cut) {
			out.WriteString(s[pos:])
			return []byte(out.String())
		}
		head, next := s[pos:cut], cut
		switch {
		case space >= 0:
			head, next = s[pos:space], space+1
		case slash >= 0 && slash < cut:
			head, next = s[pos:slash], slash
		}
		out.WriteString(strings.TrimRight(head, " "))
		out.WriteByte('\n')
		for next < len(s) && s[next] == ' ' {
			next++
		}
		pos = next
	}
}

// visibleFrom reports whether s holds a visible rune from i on (not only colour sequences).
func visibleFrom(s string, i int) bool {
	for i < len(s) {
		if s[i] != 0x1b {
			return true
		}
		j := strings.IndexByte(s[i:], 'm')
		if j < 0 {
			return true
		}
		i += j + 1
	}
	return false
}

// stripANSI removes okf's colour sequences.
func stripANSI(s string) string {
	for _, c := range []string{red, green, yellow, bold, reset} {
		s = strings.ReplaceAll(s, c, "")
	}
	return s
}

func writeText(w io.Writer, r *Report, o WriteOptions) error {
	ew := &errWriter{w: w}
	w = ew
	if o.Width > 0 {
		w = &fitWriter{w: ew, width: o.Width}
	}
	esc := escape.Control
	paint := func(colour, s string) string {
		if o.Color {
			return colour + s + reset
		}
		return s
	}
	t := r.Totals
	scope := ""
	if r.Scope != "" {
		scope = ", limited to " + esc(r.Scope)
	}
	fmt.Fprintf(w, "okf trust: %s in %s at %s (expiring within %s)%s\n", concepts(t.Concepts), esc(truncate(r.Bundle, 60)), when(r.Now, false), r.ExpiringWithin, scope)
	fmt.Fprintf(w, "\nTotals\n")
	fmt.Fprintf(w, "  tier       human-reviewed %d, machine-confirmed %d, unverified %d\n", t.HumanReviewed, t.MachineConfirmed, t.Unverified)
	fmt.Fprintf(w, "  status     stable %d, draft %d, deprecated %d\n", t.Stable, t.Draft, t.Deprecated)
	fmt.Fprintf(w, "  staleness  stale %d, expiring %d, fresh %d, no stale_after %d\n", t.Stale, t.Expiring, t.Fresh, t.NoStaleAfter)
	fmt.Fprintf(w, "  changed since verified %d, derived from flagged concepts %d\n", t.ChangedSinceVerified, t.FlaggedLineage)

	if len(r.Directories) > 0 {
		fmt.Fprintf(w, "\nBy directory\n")
		var rows [][]cell
		for _, d := range r.Directories {
			rows = append(rows, []cell{{text: esc(d.Dir)}, num(d.Concepts), num(d.HumanReviewed), num(d.MachineConfirmed),
				num(d.Unverified), num(d.Draft), num(d.Deprecated), num(d.Stale), num(d.Expiring)})
		}
		table(w, "  ", o.Color, o.Width, []string{"DIR", "CONCEPTS", "HUMAN", "MACHINE", "UNVERIFIED", "DRAFT", "DEPRECATED", "STALE", "EXPIRING"}, rows)
	}

	fmt.Fprintf(w, "\nReview queue (most urgent first)\n")
	if len(r.Queue) == 0 {
		fmt.Fprintf(w, "  nothing needs review\n")
	}
	top := o.Top
	if top <= 0 || top > len(r.Queue) {
		top = len(r.Queue)
	}
	base := ""
	if r.Changes != nil {
		base = r.Changes.Base
	}
	ti := inline{id: esc, text: esc, approx: approxMark}
	for i, q := range r.Queue[:top] {
		mark := ""
		if q.Touched {
			mark = " (changed here)"
		}
		fmt.Fprintf(w, "  %d. %s%s: %s\n", i+1, esc(q.ID), mark, evidence(q, base, ti))
	}
	if top < len(r.Queue) {
		fmt.Fprintf(w, "  … and %d more (--top 0 shows all)\n", len(r.Queue)-top)
	}

	if len(r.Concepts) > 0 {
		fmt.Fprintf(w, "\nConcepts\n")
		var rows [][]cell
		for _, c := range r.Concepts {
			fresh := cell{text: staleText(c)}
			switch c.Freshness {
			case FreshStale:
				fresh.colour = red
			case FreshExpiring:
				fresh.colour = yellow
			}
			rows = append(rows, []cell{{text: esc(c.ID)}, {text: esc(orDash(escape.Shown(c.Type)))}, {text: c.Status.String()},
				{text: c.Tier.String(), colour: tierColour(c.Tier.String())}, {text: ti.stamp(c.Verified)},
				{text: ti.stamp(c.Generated)}, fresh, num(c.Sources), {text: orDash(strings.Join(flags(c), ","))}})
		}
		table(w, "  ", o.Color, o.Width, []string{"ID", "TYPE", "STATUS", "TIER", "LAST VERIFIED", "GENERATED", "STALE AFTER", "SOURCES", "FLAGS"}, rows)
	}

	var acs []*Concept
	for _, c := range r.Concepts {
		if c.computation {
			acs = append(acs, c)
		}
	}
	if len(acs) > 0 {
		fmt.Fprintf(w, "\nAttested computations\n")
		for _, c := range acs {
			problem := ""
			if c.AttesterProblem != "" {
				problem = ": " + esc(c.AttesterProblem)
			}
			fmt.Fprintf(w, "  %s: runtime %s, attester %s%s\n", esc(c.ID), esc(orDash(escape.Shown(c.Runtime))), esc(orDash(escape.Shown(c.Attester))), problem)
		}
	}

	if t.FlaggedLineage > 0 {
		fmt.Fprintf(w, "\nLineage (derives from an unverified, stale or deprecated concept)\n")
		for _, c := range r.Concepts {
			for _, u := range c.Upstream {
				fmt.Fprintf(w, "  %s: %s is %s: %s\n", esc(c.ID), esc(u.ID), strings.Join(u.Reasons, ", "), esc(u.chainText()))
			}
		}
	}
	if len(r.Cycles) > 0 {
		fmt.Fprintf(w, "\nSource cycles (not followed further)\n")
		for _, cy := range r.Cycles {
			fmt.Fprintf(w, "  %s\n", esc(chainText(cy)))
		}
	}
	if ch := r.Changes; ch != nil {
		fmt.Fprintf(w, "\nChanges since %s\n", esc(ch.Base))
		if ch.Empty() {
			fmt.Fprintf(w, "  nothing moved\n")
		}
		list := func(label string, ids []string) {
			if len(ids) > 0 {
				fmt.Fprintf(w, "  %s: %s\n", label, esc(strings.Join(ids, ", ")))
			}
		}
		list("added", ch.Added)
		list("removed", ch.Removed)
		for _, c := range ch.Tier {
			fmt.Fprintf(w, "  tier %s: %s -> %s\n", esc(c.ID), c.From, paint(tierColour(c.To), c.To))
		}
		for _, c := range ch.Status {
			fmt.Fprintf(w, "  status %s: %s -> %s\n", esc(c.ID), c.From, c.To)
		}
		list("newly stale", ch.NewlyStale)
		list("changed since verified", ch.ChangedSinceVerified)
	}

	notes := false
	for _, c := range r.Concepts {
		if len(c.Notes) == 0 {
			continue
		}
		if !notes {
			fmt.Fprintf(w, "\nNotes\n")
			notes = true
		}
		for _, n := range c.Notes {
			fmt.Fprintf(w, "  %s: %s\n", esc(c.Path), esc(n))
		}
	}
	if r.Approximate {
		fmt.Fprintf(w, "\n%s\n", approxLegend)
	}
	return ew.err
}

func num(n int) cell { return cell{text: fmt.Sprint(n)} }

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

// errWriter keeps the first write error so a formatter can print freely and report it once.
type errWriter struct {
	w   io.Writer
	err error
}

func (e *errWriter) Write(p []byte) (int, error) {
	if e.err != nil {
		return len(p), nil
	}
	_, e.err = e.w.Write(p)
	return len(p), nil
}

// writeJSON writes the report as okf writes all JSON (escape.EncodeJSONLog): the same values, with
// no `##[`, control, bidi or separator character raw, whatever the bundle's titles and actors hold.
func writeJSON(w io.Writer, r *Report) error {
	return escape.EncodeJSONLog(w, r, "  ", false)
}

// concepts counts concepts in words: "1 concept", "7 concepts".
func concepts(n int) string {
	if n == 1 {
		return "1 concept"
	}
	return fmt.Sprintf("%d concepts", n)
}

// inline formats the two kinds of bundle text a queue line holds: concept IDs and any other text
// (actors, attester paths). Each format passes its own escaping.
type inline struct {
	id, text func(string) string
	approx   string // the approximate mark as the format writes it
}

// stampIn prints "by at" with the by escaped for the format.
func (f inline) stamp(s *Stamp) string {
	if s == nil {
		return "-"
	}
	at := "-"
	if !s.At.IsZero() {
		at = s.At.UTC().Format(time.RFC3339)
		if s.Approximate {
			at += f.approx
		}
	}
	switch {
	case s.At.IsZero():
		return f.text(orDash(escape.Shown(s.By)))
	case s.By == "":
		return at
	}
	return f.text(escape.Shown(s.By)) + " " + at
}

func (f inline) at(s *Stamp) string {
	if s == nil || s.At.IsZero() {
		return "-"
	}
	at := s.At.UTC().Format(time.RFC3339)
	if s.Approximate {
		at += f.approx
	}
	return at
}

// plural counts things in words: "1 concept", "3 concepts".
func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}

// evidence prints why q is queued, each rule with the facts behind it, in the order of Ranks:
// which upstream concept is flagged, since when a concept is stale, how many use it.
func evidence(q QueueItem, base string, f inline) string {
	var parts []string
	for _, r := range q.rules {
		var s string
		switch r {
		case 1:
			s = "stale since " + f.at(q.StaleAfter) + " and used by " + plural(q.UsedBy, "concept", "concepts")
		case 2:
			s = "stale since " + f.at(q.StaleAfter)
		case 3:
			s = "machine-confirmed only (last " + f.stamp(q.Verified) + ")"
		case 4:
			s = "unverified"
		case 5:
			if q.ContentEdited {
				s = "changed since verified (content edited since " + f.text(base) + ", verification still " + f.stamp(q.Verified) + ")"
			} else {
				s = "changed since verified (generated " + f.at(q.Generated) + " after verified " + f.at(q.Verified) + ")"
			}
		case 6:
			s = "expiring soon (stale after " + f.at(q.StaleAfter) + ")"
		case 7:
			u := q.Upstream
			s = "derives from " + f.id(u.ID) + " (" + strings.Join(u.Reasons, ", ") + ")"
			if len(u.Chain) > 2 {
				s += " via " + f.id(u.Chain[len(u.Chain)-2])
			}
			if q.UpstreamMore > 0 {
				s += fmt.Sprintf(" +%d more", q.UpstreamMore)
			}
		case 8:
			s = "attester missing or cannot run: " + f.text(q.AttesterProblem)
		}
		parts = append(parts, s)
	}
	if q.UsedBy > 0 && q.Rank != 1 {
		parts = append(parts, "used by "+plural(q.UsedBy, "concept", "concepts"))
	}
	return strings.Join(parts, "; ")
}
