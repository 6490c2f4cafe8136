package lint

import "github.com/okf-tools/okf/okf"

// Orphan reports a concept that no other concept links to (in its body or a path-valued field) and
// no index.md lists (info, a convention). Progressive disclosure (§8) and the link graph (§6.1) are
// how readers and agents find knowledge; a concept outside both is reachable only by listing files.
// A bundle with no index.md at all is not checked: its consumers synthesize indexes (§8), so there
// is no written navigation for a concept to be missing from.
var Orphan = &Rule{Code: "OKF606", Name: "orphan", Severity: okf.Info, Scope: ScopeBundle, reads: []factRef{factPresent, factEdges, factReach},
	Title: "concept neither linked from another concept nor listed in an index",
	Doc: "Readers and agents find concepts through index.md files (§8) and links between concepts (§6.1). A concept " +
		"that no index lists and no other concept links to, in its body or in a path-valued field such as " +
		"`computation` or `executor.resource` (§6.2), can only be found by listing the files. List it in its folder's " +
		"index.md, or link to it from a related concept. A bundle with no index.md at all is not checked: consumers " +
		"synthesize indexes for it (§8).\n\n" +
		"Bad: tables/refunds.md, with no `[Refunds](refunds.md)` entry in tables/index.md and no link to it.\n\n" +
		"Good (tables/index.md):\n\n    # Tables\n\n    * [Refunds](refunds.md) - One row per refund.",
	Check: checkOrphan}

func checkOrphan(p *Pass) {
	b := p.Bundle
	if len(b.Indexes) == 0 {
		return
	}
	reached := make(map[string]bool, len(b.Concepts))
	link := func(from, target string) {
		if r, local := resolveLocal(b, from, target); local && r.Exists && !r.IsDir && r.Target != from {
			reached[r.Target] = true
		}
	}
	for _, e := range factEdges.all(p) {
		for _, t := range e.to {
			reached[t.target] = true
		}
	}
	for _, ts := range factReach.all(p) {
		for _, t := range ts {
			reached[t] = true
		}
	}
	for _, x := range b.Indexes {
		for _, l := range x.Body.Links {
			link(x.Path, l.Target)
		}
	}
	for i, present := range factPresent.all(p) {
		if c := b.Concepts[i]; present && !reached[c.Path] {
			p.Reportf(fileStart(c), "concept is not listed in any index.md and no other concept links to it: list it in its folder's index.md or link to it from a related concept (§8, §6.1)")
		}
	}
}

// factReach: the other files of the bundle the concept's path-valued fields name (§6.2:
// `computation`, `executor.resource`…), which an orphan check counts as links to them.
var factReach = &fact[[]string]{name: "reach", doc: "the existing files of the bundle the concept's path-valued fields name, resolved",
	of: func(in *factInput) []string {
		var out []string
		if !in.fm.Present {
			return nil
		}
		for _, pf := range pathFields(nil, in.fm) {
			if r := in.b.ResolvePath(in.c.Path, pf.v.Raw); r.Kind == okf.RefLocal && r.Exists && !r.Escapes && r.Target != in.c.Path {
				out = append(out, r.Target)
			}
		}
		return out
	},
	share: func(v *[]string, paths pathInterner) {
		for k := range *v {
			(*v)[k] = paths.of((*v)[k])
		}
	}}
