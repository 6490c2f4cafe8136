package trust

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"time"
	"unicode/utf8"
)

// Formats lists the output formats, in the order the help text shows them.
var Formats = []string{"text", "markdown", "json", "html"}

// WriteOptions tune a formatter.
type WriteOptions struct {
	// Color turns on ANSI colour in the text format (the CLI sets it only for a terminal without
	// NO_COLOR).
	Color bool
}

// Write prints r in the named format.
func Write(w io.Writer, r *Report, format string, o WriteOptions) error {
	switch format {
	case "text":
		return writeText(w, r, o)
	case "markdown":
		return writeMarkdown(w, r)
	case "json":
		return writeJSON(w, r)
	case "html":
		return writeHTML(w, r)
	}
	return fmt.Errorf("unknown format %q: want one of %s", format, strings.Join(Formats, ", "))
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

// stampText prints "by at" for a stamp, "-" when absent.
func stampText(s *Stamp) string {
	if s == nil {
		return "-"
	}
	switch {
	case s.At.IsZero():
		return orDash(s.By)
	case s.By == "":
		return when(s.At, s.Approximate)
	}
	return s.By + " " + when(s.At, s.Approximate)
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
// codes never shift the columns.
func table(w io.Writer, indent string, colour bool, header []string, rows [][]cell) {
	widths := make([]int, len(header))
	for i, h := range header {
		widths[i] = utf8.RuneCountInString(h)
	}
	for _, r := range rows {
		for i, c := range r {
			widths[i] = max(widths[i], utf8.RuneCountInString(c.text))
		}
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

// truncate shortens s to n runes with an ellipsis.
func truncate(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return string(r[:n-1]) + "…"
}

func writeText(w io.Writer, r *Report, o WriteOptions) error {
	ew := &errWriter{w: w}
	w = ew
	paint := func(colour, s string) string {
		if o.Color {
			return colour + s + reset
		}
		return s
	}
	t := r.Totals
	fmt.Fprintf(w, "okf trust: %s at %s (expiring within %s)\n", concepts(t.Concepts), when(r.Now, false), r.ExpiringWithin)
	fmt.Fprintf(w, "\nTotals\n")
	fmt.Fprintf(w, "  tier       human-reviewed %d, machine-confirmed %d, unverified %d\n", t.HumanReviewed, t.MachineConfirmed, t.Unverified)
	fmt.Fprintf(w, "  status     stable %d, draft %d, deprecated %d\n", t.Stable, t.Draft, t.Deprecated)
	fmt.Fprintf(w, "  staleness  stale %d, expiring %d, fresh %d, no stale_after %d\n", t.Stale, t.Expiring, t.Fresh, t.NoStaleAfter)
	fmt.Fprintf(w, "  changed since verified %d, derived from flagged concepts %d\n", t.ChangedSinceVerified, t.FlaggedLineage)

	if len(r.Directories) > 0 {
		fmt.Fprintf(w, "\nBy directory\n")
		var rows [][]cell
		for _, d := range r.Directories {
			rows = append(rows, []cell{{text: d.Dir}, num(d.Concepts), num(d.HumanReviewed), num(d.MachineConfirmed),
				num(d.Unverified), num(d.Draft), num(d.Deprecated), num(d.Stale), num(d.Expiring)})
		}
		table(w, "  ", o.Color, []string{"DIR", "CONCEPTS", "HUMAN", "MACHINE", "UNVERIFIED", "DRAFT", "DEPRECATED", "STALE", "EXPIRING"}, rows)
	}

	fmt.Fprintf(w, "\nReview queue (most urgent first)\n")
	if len(r.Queue) == 0 {
		fmt.Fprintf(w, "  nothing needs review\n")
	}
	for i, q := range r.Queue {
		fmt.Fprintf(w, "  %d. %s: %s\n", i+1, q.ID, strings.Join(q.Reasons, "; "))
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
			rows = append(rows, []cell{{text: c.ID}, {text: truncate(orDash(c.Type), 24)}, {text: c.Status.String()},
				{text: c.Tier.String(), colour: tierColour(c.Tier.String())}, {text: stampText(c.Verified)},
				{text: stampText(c.Generated)}, fresh, num(c.Sources), {text: orDash(strings.Join(flags(c), ","))}})
		}
		table(w, "  ", o.Color, []string{"ID", "TYPE", "STATUS", "TIER", "LAST VERIFIED", "GENERATED", "STALE AFTER", "SOURCES", "FLAGS"}, rows)
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
			fmt.Fprintf(w, "  %s: runtime %s, attester %s\n", c.ID, orDash(c.Runtime), orDash(c.Attester))
		}
	}

	if t.FlaggedLineage > 0 {
		fmt.Fprintf(w, "\nLineage (derives from an unverified, stale or deprecated concept)\n")
		for _, c := range r.Concepts {
			for _, u := range c.Upstream {
				fmt.Fprintf(w, "  %s: %s is %s: %s\n", c.ID, u.ID, strings.Join(u.Reasons, ", "), chainText(u.Chain))
			}
		}
	}
	if len(r.Cycles) > 0 {
		fmt.Fprintf(w, "\nSource cycles (not followed further)\n")
		for _, cy := range r.Cycles {
			fmt.Fprintf(w, "  %s\n", chainText(cy))
		}
	}
	if ch := r.Changes; ch != nil {
		fmt.Fprintf(w, "\nChanges since %s\n", ch.Base)
		if ch.Empty() {
			fmt.Fprintf(w, "  nothing moved\n")
		}
		list := func(label string, ids []string) {
			if len(ids) > 0 {
				fmt.Fprintf(w, "  %s: %s\n", label, strings.Join(ids, ", "))
			}
		}
		list("added", ch.Added)
		list("removed", ch.Removed)
		for _, c := range ch.Tier {
			fmt.Fprintf(w, "  tier %s: %s -> %s\n", c.ID, c.From, paint(tierColour(c.To), c.To))
		}
		for _, c := range ch.Status {
			fmt.Fprintf(w, "  status %s: %s -> %s\n", c.ID, c.From, c.To)
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
			fmt.Fprintf(w, "  %s: %s\n", c.Path, n)
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

func writeJSON(w io.Writer, r *Report) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(r)
}

// concepts counts concepts in words: "1 concept", "7 concepts".
func concepts(n int) string {
	if n == 1 {
		return "1 concept"
	}
	return fmt.Sprintf("%d concepts", n)
}
