package lint

import (
	"github.com/okf-tools/okf/okf"
)

// IndexWithoutSections reports an index.md whose body has no heading, or no entry at all (D7:
// warning). §8 describes the body as "one or more sections, each grouping concepts under a heading";
// an index without either enumerates nothing a reader can browse. A link anywhere in the file counts
// as an entry, as for concept-not-indexed: real bundles list concepts in tables too.
var IndexWithoutSections = &Rule{Code: "OKF807", Name: "index-without-sections", Severity: okf.Warning, Spec: "§8", Decision: "D7", Scope: ScopeBundle,
	Title: "index.md without a heading or without entries",
	Doc: "An index.md's body uses one or more sections, each grouping concepts under a heading (§8). An index with " +
		"no heading, or with no entry at all, does not follow that shape (D7: warning, not an error).\n\n" +
		"Bad:\n\n    Tables of the warehouse.\n\n" +
		"Good:\n\n    # Tables\n\n    * [Orders](orders.md) - One row per order.",
	Check: checkIndexWithoutSections}

func checkIndexWithoutSections(p *Pass) {
	unreadable := map[string]bool{}
	for _, d := range p.Bundle.Diagnostics {
		if d.Code == okf.CodeNotUTF8 || d.Code == okf.CodeUnreadable {
			unreadable[d.Pos.Path] = true
		}
	}
	for _, x := range p.Bundle.Indexes {
		if unreadable[x.Path] {
			continue // its body could not be read: the conformance rule says so
		}
		heading, entry := len(x.Body.Headings) > 0, len(x.Body.Links) > 0
		for _, s := range x.Sections {
			entry = entry || len(s.Entries) > 0
		}
		pos := okf.Position{Path: x.Path, Line: 1, Col: 1}
		switch {
		case !heading && !entry:
			p.Reportf(pos, "index has no heading and no entry: add a section such as # Concepts with entries * [Title](file.md) - description (§8, D7)")
		case !heading:
			p.Reportf(pos, "index has no heading: group its entries under one or more section headings, for example # Concepts (§8, D7)")
		case !entry:
			p.Reportf(pos, "index has no entry: list the folder's concepts as * [Title](file.md) - description (§8, D7)")
		}
	}
}
