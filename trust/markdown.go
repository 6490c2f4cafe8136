package trust

import (
	"fmt"
	"io"
	"strings"
)

// mdCell escapes text for a Markdown table cell.
func mdCell(s string) string {
	s = strings.ReplaceAll(s, `\`, `\\`)
	s = strings.ReplaceAll(s, "|", `\|`)
	s = strings.ReplaceAll(s, "\n", " ")
	s = strings.ReplaceAll(s, "~", `\~`) // a single tilde can strike text through on GitHub
	return s
}

// mdCode wraps s in a code span, choosing a fence longer than any backtick run inside.
func mdCode(s string) string {
	fence := "`"
	for strings.Contains(s, fence) {
		fence += "`"
	}
	if strings.HasPrefix(s, "`") || strings.HasSuffix(s, "`") {
		return fence + " " + s + " " + fence
	}
	return fence + s + fence
}

// writeMarkdown prints the report as GitHub-flavoured Markdown that fits a pull-request comment:
// a summary, the review queue and the changes in the open, the full concept table folded away.
func writeMarkdown(w io.Writer, r *Report) error {
	ew := &errWriter{w: w}
	w = ew
	t := r.Totals
	fmt.Fprintf(w, "## okf trust report\n\n")
	fmt.Fprintf(w, "%s at `%s` (expiring within %s): **%d human-reviewed**, %d machine-confirmed, %d unverified; "+
		"%d stale, %d expiring soon.\n\n", concepts(t.Concepts), when(r.Now, false), r.ExpiringWithin,
		t.HumanReviewed, t.MachineConfirmed, t.Unverified, t.Stale, t.Expiring)

	fmt.Fprintf(w, "| | concepts | human-reviewed | machine-confirmed | unverified | draft | deprecated | stale | expiring | changed since verified | flagged lineage |\n")
	fmt.Fprintf(w, "|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|\n")
	row := func(name string, t Totals) {
		fmt.Fprintf(w, "| %s | %d | %d | %d | %d | %d | %d | %d | %d | %d | %d |\n", name, t.Concepts, t.HumanReviewed,
			t.MachineConfirmed, t.Unverified, t.Draft, t.Deprecated, t.Stale, t.Expiring, t.ChangedSinceVerified, t.FlaggedLineage)
	}
	row("**all**", t)
	for _, d := range r.Directories {
		row(mdCode(d.Dir+"/"), d.Totals)
	}

	fmt.Fprintf(w, "\n### Review queue\n\n")
	if len(r.Queue) == 0 {
		fmt.Fprintf(w, "Nothing needs review.\n")
	}
	for i, q := range r.Queue {
		fmt.Fprintf(w, "%d. %s: %s\n", i+1, mdCode(q.ID), strings.Join(q.Reasons, "; "))
	}

	if ch := r.Changes; ch != nil {
		fmt.Fprintf(w, "\n### Changes since %s\n\n", mdCode(ch.Base))
		if ch.Empty() {
			fmt.Fprintf(w, "Nothing moved.\n")
		}
		list := func(label string, ids []string) {
			if len(ids) == 0 {
				return
			}
			codes := make([]string, len(ids))
			for i, id := range ids {
				codes[i] = mdCode(id)
			}
			fmt.Fprintf(w, "- %s: %s\n", label, strings.Join(codes, ", "))
		}
		list("Added", ch.Added)
		list("Removed", ch.Removed)
		for _, c := range ch.Tier {
			fmt.Fprintf(w, "- Tier of %s: %s → **%s**\n", mdCode(c.ID), c.From, c.To)
		}
		for _, c := range ch.Status {
			fmt.Fprintf(w, "- Status of %s: %s → **%s**\n", mdCode(c.ID), c.From, c.To)
		}
		list("Newly stale", ch.NewlyStale)
		list("Changed since verified", ch.ChangedSinceVerified)
	}

	if t.FlaggedLineage > 0 || len(r.Cycles) > 0 {
		fmt.Fprintf(w, "\n### Lineage\n\n")
		for _, c := range r.Concepts {
			for _, u := range c.Upstream {
				fmt.Fprintf(w, "- %s derives from %s (%s): %s\n", mdCode(c.ID), mdCode(u.ID), strings.Join(u.Reasons, ", "), mdCode(chainText(u.Chain)))
			}
		}
		for _, cy := range r.Cycles {
			fmt.Fprintf(w, "- Source cycle (not followed further): %s\n", mdCode(chainText(cy)))
		}
	}

	if len(r.Concepts) > 0 {
		fmt.Fprintf(w, "\n<details><summary>All %d concepts</summary>\n\n", len(r.Concepts))
		fmt.Fprintf(w, "| concept | type | title | status | tier | last verified | generated | stale after | sources | flags |\n")
		fmt.Fprintf(w, "|---|---|---|---|---|---|---|---|--:|---|\n")
		for _, c := range r.Concepts {
			extra := flags(c)
			if c.Runtime != "" || c.Attester != "" {
				extra = append(extra, fmt.Sprintf("runtime %s, attester %s", orDash(c.Runtime), orDash(c.Attester)))
			}
			fmt.Fprintf(w, "| %s | %s | %s | %s | %s | %s | %s | %s | %d | %s |\n", mdCode(c.ID), mdCell(orDash(c.Type)),
				mdCell(orDash(c.Title)), c.Status, c.Tier, mdCell(stampText(c.Verified)), mdCell(stampText(c.Generated)),
				mdCell(staleText(c)), c.Sources, mdCell(orDash(strings.Join(extra, "; "))))
		}
		fmt.Fprintf(w, "\n</details>\n")
	}

	var notes []string
	for _, c := range r.Concepts {
		for _, n := range c.Notes {
			notes = append(notes, fmt.Sprintf("- %s: %s", mdCode(c.Path), mdCell(n)))
		}
	}
	if len(notes) > 0 {
		fmt.Fprintf(w, "\n<details><summary>Notes (%d)</summary>\n\n%s\n\n</details>\n", len(notes), strings.Join(notes, "\n"))
	}
	if r.Approximate {
		fmt.Fprintf(w, "\n%s\n", strings.Replace(approxLegend, "~", `\~`, 1))
	}
	return ew.err
}
