package lint

import (
	"github.com/okf-tools/okf/okf"
)

// ConceptNotIndexed reports a concept that its directory's index.md does not link to (§8, D7:
// info). The index exists for progressive disclosure; a concept missing from it is invisible to a
// reader who browses. A link anywhere in the index counts (real bundles list concepts in tables), and
// folders without an index.md are not reported (§11: missing indexes are fine). The finding is
// placed in the index, where the fix goes.
var ConceptNotIndexed = &Rule{Code: "OKF802", Name: "concept-not-indexed", Severity: okf.Info, Spec: "§8", Decision: "D7", Scope: ScopeBundle, reads: []factRef{factTitle, factDescription},
	Fix: &Fixer{Make: fixNotIndexed,
		Doc: "appends an entry `* [Title](file.md) - description` at the end of the index (merge mode: nothing else in the index changes)"},
	Title: "concept missing from its directory's index",
	Doc: "An index.md enumerates its directory's contents (§8). A concept in a folder whose index.md has no entry " +
		"or other link to it is not reachable by browsing (D7: info). Add an entry with the concept's description.\n\n" +
		"Bad (tables/index.md, with tables/orders.md and tables/customers.md present):\n\n    * [Orders](orders.md) - One row per order.\n\n" +
		"Good:\n\n    * [Orders](orders.md) - One row per order.\n    * [Customers](customers.md) - One row per customer.",
	Check: checkConceptNotIndexed}

func checkConceptNotIndexed(p *Pass) {
	b := p.Bundle
	byDir := make(map[string]*okf.Index, len(b.Indexes))
	type key struct{ index, target string }
	listed := make(map[key]bool)
	for _, x := range b.Indexes {
		byDir[x.Dir()] = x
		// Body.Links holds every link of the file, list entries included.
		for _, l := range x.Body.Links {
			if r, local := resolveLocal(b, x.Path, l.Target); local && r.Exists {
				listed[key{x.Path, r.Target}] = true
			}
		}
	}
	titles, descriptions := factTitle.all(p), factDescription.all(p)
	for i, c := range b.Concepts {
		x := byDir[c.Dir()]
		if x == nil || listed[key{x.Path, c.Path}] {
			continue
		}
		entry := indexEntryFor(c, titles[i].Text(), descriptions[i]) // what the fix appends
		p.Reportf(okf.Position{Path: x.Path, Line: 1, Col: 1}, "%s is not listed in this index: add an entry such as %q (§8)", c.Path, entry)
	}
}

// factDescription: the `description`'s text, which the suggested index entry quotes.
var factDescription = &fact[string]{name: "description", doc: "the text of the concept's `description` (\"\" when it is no scalar)",
	of: func(in *factInput) string { return in.fm.Description.Text() }}
