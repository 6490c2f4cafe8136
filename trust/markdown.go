package trust

import (
	"fmt"
	"io"
	"strings"

	"github.com/okf-tools/okf/internal/escape"
)

// DefaultMaxChars is the default --max-bytes budget of the Markdown report: the 65,536 characters a
// GitHub pull-request comment holds.
const DefaultMaxChars = 65536

// MinMaxChars is the smallest budget accepted: the heading, the summary and the totals row always fit.
const MinMaxChars = 2048

// DefaultTop is how many review-queue items the human formats show by default.
const DefaultTop = 50

// Every bundle string in the Markdown report is text, never markup: IDs and paths are code spans
// (escape.MarkdownCode, which no content can close), titles, types, actors and notes are
// escaped with escape.Markdown (no link, image, mention, HTML tag or table break).
var mdInline = inline{id: escape.MarkdownCode, text: escape.Markdown, approx: `\~`}

// mdBudget writes Markdown without passing max characters (0: no limit). GitHub refuses a comment
// with "Body is too long (maximum is 65536 characters)": characters, not bytes. A character is
// counted here as UTF-16 code units: 1 for a character of the Basic Multilingual Plane, 2 for one
// outside it (most emoji). That equals a count of code points for nearly all text and is never
// below it, so the report fits whether GitHub counts code points or UTF-16 units.
type mdBudget struct {
	b       strings.Builder
	max     int
	used    int
	reserve int      // kept free for the closing note
	left    []string // what was left out, for the closing note
}

// chars counts s in UTF-16 code units (see mdBudget).
func chars(s string) int {
	n := 0
	for _, r := range s {
		n++
		if r > 0xFFFF {
			n++
		}
	}
	return n
}

func (m *mdBudget) fits(n int) bool { return m.max == 0 || m.used+n+m.reserve <= m.max }

func (m *mdBudget) write(s string) {
	m.b.WriteString(s)
	m.used += chars(s)
}

// mdSection is a part of the report that can be cut: a head, items, and a tail that closes it
// (`</details>`). more prints the line that counts the items left out.
type mdSection struct {
	name       string
	head, tail string
	items      []string
	omitted    int // items left out before packing (--top)
	more       func(n int) string
}

// section writes as much of s as fits: the head and tail only with at least one item (or none
// to show), then items while the rest (the more line and the tail) still fits.
func (m *mdBudget) section(s mdSection) {
	more := func(n int) string {
		if n == 0 || s.more == nil {
			return ""
		}
		return s.more(n)
	}
	total := len(s.items) + s.omitted
	if !m.fits(chars(s.head) + chars(s.tail) + chars(more(total))) {
		m.left = append(m.left, s.name)
		return
	}
	m.write(s.head)
	shown := 0
	tailN := chars(s.tail)
	for _, it := range s.items {
		if !m.fits(chars(it) + tailN + chars(more(total-shown-1))) {
			break
		}
		m.write(it)
		shown++
	}
	m.write(more(total - shown))
	m.write(s.tail)
}

// writeMarkdown prints the report as GitHub-flavoured Markdown for a pull-request comment, never
// longer than o.MaxChars characters: the summary and totals first, then (with --base) the concepts
// this change touched, then the top of the review queue and a line naming how many more there are
// and the command that shows them all; the directories, lineage, full concept table and notes
// follow, folded away, as far as the budget allows.
func writeMarkdown(w io.Writer, r *Report, o WriteOptions) error {
	m := &mdBudget{max: o.MaxChars}
	t := r.Totals
	full := o.FullCommand
	if full == "" {
		full = "okf trust --top 0"
	}
	md := mdInline
	m.write(fmt.Sprintf("## okf trust report: %s\n\n", md.text(truncate(r.Bundle, 120))))
	rev := ""
	if r.Revision != "" {
		rev = " revision " + md.id(truncate(r.Revision, 64)) + ","
	}
	scope := ""
	if r.Scope != "" {
		scope = " under " + md.id(truncate(r.Scope, 120)) + " (the report is limited to it)"
	}
	m.write(fmt.Sprintf("%s%s at `%s`,%s expiring within %s: **%d human-reviewed**, %d machine-confirmed, %d unverified; "+
		"%d stale, %d expiring soon, %d changed since verified, %d with flagged lineage; **%d to review**.\n\n",
		concepts(t.Concepts), scope, when(r.Now, false), rev, md.text(r.ExpiringWithin), t.HumanReviewed, t.MachineConfirmed,
		t.Unverified, t.Stale, t.Expiring, t.ChangedSinceVerified, t.FlaggedLineage, len(r.Queue)))
	header := "| | concepts | human-reviewed | machine-confirmed | unverified | draft | deprecated | stale | expiring | changed since verified | flagged lineage |\n" +
		"|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|\n"
	row := func(name string, t Totals) string {
		return fmt.Sprintf("| %s | %d | %d | %d | %d | %d | %d | %d | %d | %d | %d |\n", name, t.Concepts, t.HumanReviewed,
			t.MachineConfirmed, t.Unverified, t.Draft, t.Deprecated, t.Stale, t.Expiring, t.ChangedSinceVerified, t.FlaggedLineage)
	}
	m.write(header + row("**all**", t))
	closing := func(left []string) string {
		return fmt.Sprintf("\n_Cut to fit %d characters: %s left out. Run %s for everything._\n",
			m.max, strings.Join(left, ", "), md.id(full))
	}
	if m.max > 0 {
		m.reserve = chars(closing([]string{"changes", "review queue", "directories", "lineage", "concept table", "notes", "legend"}))
		if m.used+m.reserve > m.max {
			return fmt.Errorf("--max-bytes %d is too small for the summary (%d characters)", m.max, m.used+m.reserve)
		}
	}

	if ch := r.Changes; ch != nil {
		base := md.id(ch.Base)
		var items []string
		byID := map[string]*Concept{}
		for _, c := range r.Concepts {
			byID[c.ID] = c
		}
		for _, id := range ch.Touched {
			c := byID[id]
			if c == nil {
				continue
			}
			what := "edited"
			if containsSorted(ch.Added, id) {
				what = "added"
			}
			fl := flags(c)
			if c.AttesterProblem != "" {
				fl = append(fl, "attester")
			}
			parts := []string{c.Tier.String(), c.Status.String()}
			if c.Freshness == FreshFresh {
				parts = append(parts, c.Freshness) // stale and expiring are among the flags
			}
			items = append(items, fmt.Sprintf("- %s %s: %s\n", md.id(id), what, strings.Join(append(parts, fl...), ", ")))
		}
		for _, id := range ch.Removed {
			items = append(items, fmt.Sprintf("- %s removed\n", md.id(id)))
		}
		for _, c := range ch.Tier {
			items = append(items, fmt.Sprintf("- Tier of %s: %s → **%s**\n", md.id(c.ID), c.From, c.To))
		}
		for _, c := range ch.Status {
			items = append(items, fmt.Sprintf("- Status of %s: %s → **%s**\n", md.id(c.ID), c.From, c.To))
		}
		for _, id := range ch.NewlyStale {
			items = append(items, fmt.Sprintf("- Newly stale: %s\n", md.id(id)))
		}
		for _, id := range ch.ChangedSinceVerified {
			items = append(items, fmt.Sprintf("- Changed since verified: %s\n", md.id(id)))
		}
		head := fmt.Sprintf("\n### Changes since %s\n\n%s touched by this change.\n\n", base, plural(len(ch.Touched), "concept", "concepts"))
		if ch.Empty() && len(ch.Touched) == 0 {
			head += "Nothing moved.\n"
		}
		m.section(mdSection{name: "changes", head: head, items: items,
			more: func(n int) string { return fmt.Sprintf("- … and %d more: run %s\n", n, md.id(full)) }})
	}

	top := o.Top
	if top <= 0 || top > len(r.Queue) {
		top = len(r.Queue)
	}
	var qitems []string
	base := ""
	if r.Changes != nil {
		base = r.Changes.Base
	}
	for i, q := range r.Queue[:top] {
		mark := ""
		if q.Touched {
			mark = " (changed here)"
		}
		qitems = append(qitems, fmt.Sprintf("%d. %s%s: %s\n", i+1, md.id(q.ID), mark, evidence(q, base, md)))
	}
	qhead := fmt.Sprintf("\n### Review queue (%d)\n\n", len(r.Queue))
	if len(r.Queue) == 0 {
		qhead += "Nothing needs review.\n"
	}
	m.section(mdSection{name: "review queue", head: qhead, items: qitems, omitted: len(r.Queue) - top,
		more: func(n int) string {
			return fmt.Sprintf("\n… and %d more. Run %s to see the whole queue.\n", n, md.id(full))
		}})

	if len(r.Directories) > 1 {
		var items []string
		for _, d := range r.Directories {
			items = append(items, row(md.id(d.Dir+"/"), d.Totals))
		}
		m.section(mdSection{name: "directories",
			head: fmt.Sprintf("\n<details><summary>By directory (%d)</summary>\n\n%s", len(r.Directories), header),
			tail: "\n</details>\n", items: items,
			more: func(n int) string { return fmt.Sprintf("\n%d more directories left out.\n", n) }})
	}

	if t.FlaggedLineage > 0 || len(r.Cycles) > 0 {
		var items []string
		for _, c := range r.Concepts {
			for _, u := range c.Upstream {
				items = append(items, fmt.Sprintf("- %s derives from %s (%s): %s\n", md.id(c.ID), md.id(u.ID),
					strings.Join(u.Reasons, ", "), md.id(u.chainText())))
			}
		}
		for _, cy := range r.Cycles {
			items = append(items, fmt.Sprintf("- Source cycle (not followed further): %s\n", md.id(chainText(cy))))
		}
		m.section(mdSection{name: "lineage", head: "\n<details><summary>Lineage</summary>\n\n", tail: "\n</details>\n", items: items,
			more: func(n int) string { return fmt.Sprintf("- … and %d more\n", n) }})
	}

	if len(r.Concepts) > 0 {
		var items []string
		for _, c := range r.Concepts {
			extra := flags(c)
			if c.Runtime != "" || c.Attester != "" {
				extra = append(extra, "runtime "+orDash(md.text(escape.Shown(c.Runtime)))+", attester "+orDash(md.text(escape.Shown(c.Attester))))
			}
			if c.AttesterProblem != "" {
				extra = append(extra, md.text(c.AttesterProblem))
			}
			items = append(items, fmt.Sprintf("| %s | %s | %s | %s | %s | %s | %s | %s | %d | %s |\n", md.id(c.ID), orDash(md.text(escape.Shown(c.Type))),
				orDash(md.text(escape.Shown(c.Title))), c.Status, c.Tier, md.stamp(c.Verified), md.stamp(c.Generated),
				md.at(c.StaleAfter), c.Sources, orDash(strings.Join(extra, "; "))))
		}
		m.section(mdSection{name: "concept table",
			head: fmt.Sprintf("\n<details><summary>All %d concepts</summary>\n\n", len(r.Concepts)) +
				"| concept | type | title | status | tier | last verified | generated | stale after | sources | flags |\n" +
				"|---|---|---|---|---|---|---|---|--:|---|\n",
			tail: "\n</details>\n", items: items,
			more: func(n int) string { return fmt.Sprintf("\n%d more concepts left out.\n", n) }})
	}

	var notes []string
	for _, c := range r.Concepts {
		for _, n := range c.Notes {
			notes = append(notes, fmt.Sprintf("- %s: %s\n", md.id(c.Path), md.text(n)))
		}
	}
	if len(notes) > 0 {
		m.section(mdSection{name: "notes", head: fmt.Sprintf("\n<details><summary>Notes (%d)</summary>\n\n", len(notes)),
			tail: "\n</details>\n", items: notes,
			more: func(n int) string { return fmt.Sprintf("- … and %d more\n", n) }})
	}
	if r.Approximate {
		m.section(mdSection{name: "legend", items: []string{"\n" + strings.Replace(approxLegend, "~", `\~`, 1) + "\n"}})
	}
	if len(m.left) > 0 {
		m.reserve = 0
		m.write(closing(m.left))
	}
	_, err := io.WriteString(w, m.b.String())
	return err
}

// containsSorted reports whether the sorted list holds s.
func containsSorted(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
