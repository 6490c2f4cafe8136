package lint

import "sort"

// The declarations: which facts a run computes (plan.facts, from its rules' Rule.reads). What the
// registry checks of a fact is factProblems (TestRegistry).

// declares reports whether r lists f among the facts it reads.
func (r *Rule) declares(f factRef) bool {
	for _, g := range r.reads {
		if g == f {
			return true
		}
	}
	return false
}

// factsRead returns the facts the rules read, each once, by name: those a ScopeBundle rule declares,
// every fact of the registry for a rule that may read the whole model (ScopeModel), and the inline
// lint directives, which the engine reads for the suppressions.
func factsRead(rules []*Rule) []factRef {
	seen := map[factRef]bool{factDirectives: true}
	out := []factRef{factDirectives}
	add := func(fs []factRef) {
		for _, f := range fs {
			if !seen[f] {
				seen[f] = true
				out = append(out, f)
			}
		}
	}
	for _, r := range rules {
		switch r.Scope {
		case ScopeModel:
			for _, x := range All() {
				add(x.reads)
			}
		case ScopeBundle:
			add(r.reads)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].factName() < out[j].factName() })
	return out
}
