package lint

import "github.com/okf-tools/okf/okf"

// IndexEntryBroken reports an index.md link that points to nothing in the bundle (§8, D7: info):
// the index promises a concept that a reader then cannot open. Every link of the index counts, list
// entries and links in tables or prose alike (real bundles list concepts in tables).
var IndexEntryBroken = &Rule{Code: "OKF801", Name: "index-entry-broken", Severity: okf.Info, Spec: "§8", Decision: "D7", Scope: ScopeBundle,
	Title: "index entry points to a missing file",
	Doc: "An index.md lists its directory's concepts and subdirectories for progressive disclosure (§8). An entry " +
		"(or any other link of the index, in a table or prose) whose target does not exist sends readers nowhere " +
		"(D7: info). Entries are resolved like links (D15): from " +
		"the index's folder, `/x` from the bundle root, folders and index.md files are valid targets.\n\n" +
		"Bad (tables/index.md):\n\n    * [Orders](order.md) - One row per order.\n\n" +
		"Good:\n\n    * [Orders](orders.md) - One row per order.",
	Check: checkIndexEntryBroken}

func checkIndexEntryBroken(p *Pass) {
	b := p.Bundle
	for _, x := range b.Indexes {
		for _, l := range x.Body.Links {
			r, local := resolveLocal(b, x.Path, l.Target)
			switch {
			case !local:
			case r.Escapes:
				p.Reportf(l.Pos, "index entry %q points to %q, outside the bundle root (§8, D14)", l.Text, l.Target)
			case !r.Exists && hiddenReason(r.Target) != "":
				p.Reportf(l.Pos, "index entry %q points to %q, which is hidden: %s (§8)", l.Text, l.Target, hiddenReason(r.Target))
			case !r.Exists:
				p.Reportf(l.Pos, "index entry %q points to %q, which does not exist (looked for %q) (§8)", l.Text, l.Target, "/"+r.Target)
			}
		}
	}
}
