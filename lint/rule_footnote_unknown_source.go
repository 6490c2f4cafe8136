package lint

import (
	"sort"
	"strings"

	"github.com/okf-tools/okf/okf"
)

// FootnoteUnknownSource reports a footnote label that matches no `sources[].id` of its concept (D16:
// warning). The label is the join key of per-claim attribution (§5.1); a numbered `[^1]` attributes
// nothing a consumer can follow. Only concepts that have `sources` are checked: without them,
// footnotes are ordinary Markdown (D16). Reported once per label and file, at its definition (else
// its first reference).
var FootnoteUnknownSource = &Rule{Code: "OKF504", Name: "footnote-unknown-source", Severity: okf.Warning, Spec: "§5.1", Decision: "D16", Scope: ScopeConcept,
	Title: "footnote label matches no sources id",
	Doc: "To attribute a claim, use a footnote whose label is a `sources[].id` (§5.1). A label that matches no id " +
		"(a numbered `[^1]`, a typo) cannot be resolved to a source (D16). Only concepts that have `sources` are checked: " +
		"in a concept without them (or with `sources: []`), footnotes are ordinary Markdown notes (D16).\n\n" +
		"Bad:\n\n    sources:\n      - { id: ga4-schema, resource: https://developers.google.com/analytics }\n    ---\n    Sharded daily.[^1]\n\n    [^1]: GA4 BigQuery Export schema\n\n" +
		"Good:\n\n    Sharded daily.[^ga4-schema]\n\n    [^ga4-schema]: GA4 BigQuery Export schema",
	Check: checkFootnoteUnknownSource}

// sourceIDs returns the set of a concept's non-empty sources ids.
func sourceIDs(fm *okf.Frontmatter) map[string]bool {
	ids := make(map[string]bool, len(fm.Sources.Items))
	for _, s := range fm.Sources.Items {
		if s.ID.Kind == okf.Scalar && strings.TrimSpace(s.ID.Raw) != "" {
			ids[strings.TrimSpace(s.ID.Raw)] = true
		}
	}
	return ids
}

// hasSources reports whether a concept declares sources (D16): a `sources` key that is not an empty
// list. A malformed value (a string, a mapping) still declares them.
func hasSources(fm *okf.Frontmatter) bool {
	s := fm.Sources
	return fm.Present && s.Present() && s.Kind != okf.Null && (s.Kind != okf.Sequence || len(s.Items) > 0)
}

func checkFootnoteUnknownSource(p *Pass) {
	for _, c := range p.Bundle.Concepts {
		if len(c.Body.FootnoteDefs) == 0 && len(c.Body.FootnoteRefs) == 0 || !hasSources(c.Frontmatter) {
			continue
		}
		ids := sourceIDs(c.Frontmatter)
		known := make([]string, 0, len(ids))
		for id := range ids {
			known = append(known, id)
		}
		sort.Strings(known)
		hint := "add a sources entry with that id, or relabel the footnote"
		if len(known) > 0 {
			hint = "relabel it with the id of the source it cites (" + strings.Join(known, ", ") + ") or add a sources entry"
		}
		// One finding per label: at its first definition, else at its first reference.
		where := map[string]okf.Position{}
		fromDef := map[string]bool{}
		var order []string
		note := func(label string, pos okf.Position, def bool) {
			if ids[label] {
				return
			}
			old, seen := where[label]
			switch {
			case !seen:
				order = append(order, label)
			case fromDef[label] || !def && old.Less(pos):
				return
			}
			where[label], fromDef[label] = pos, def
		}
		for _, r := range c.Body.FootnoteRefs {
			note(r.Label, r.Pos, false)
		}
		for _, d := range c.Body.FootnoteDefs {
			note(d.Label, d.Pos, true)
		}
		for _, label := range order {
			p.Reportf(where[label], "footnote [^%s] matches no sources[].id: %s (§5.1, D16)", label, hint)
		}
	}
}
