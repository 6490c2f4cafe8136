package lint

import (
	"sync"
	"sync/atomic"

	"github.com/okf-tools/okf/okf"
)

// The engine. Every run, whatever starts it, is two steps over the registry's rules, split by
// their declared Scope (plan.split):
//
//  1. the per-concept step (plan.runPerConcept): each ScopeConcept rule on a view holding one
//     concept (okf.Bundle.Alone: the concept, and the bundle's file set for Stat, ResolvePath,
//     ResolveLink and ReadFile, which refuses every .md file but the concept's own), then the
//     facts of that concept the other rules read
//     (conceptFacts, only those plan.reads names);
//  2. the bundle step (plan.finish): the other rules over the bundle and those facts, then the
//     configuration, suppressions, filters and baseline.
//
// Run does step 1 over each concept of a loaded bundle (plan.run), a Stream as each concept loads
// (dropping its model after), a Session for each concept an edit changed (keeping the others'
// results); all three then do step 2. So the findings are the same by construction; the
// differential tests (TestStreamMatchesRun, TestSessionMatchesRun, FuzzStreamMatchesRun) guard the
// wiring, TestPerConceptRulesKeepTheirScope and TestBundleRulesDeclareTheirFacts the declarations.

// split parts the active rules by scope. A rule that reads the whole model (ScopeModel: any rule
// written outside okf that declares no scope) runs in the bundle step with the model whole, so a
// Stream or Session with one among the active rules drops and keeps nothing (whole).
func (pl *plan) split() {
	pl.perConcept, pl.rest, pl.whole = nil, nil, false
	for _, r := range pl.active {
		switch r.Scope {
		case ScopeConcept:
			pl.perConcept = append(pl.perConcept, r)
		case ScopeModel:
			pl.whole = true
			pl.rest = append(pl.rest, r)
		default:
			pl.rest = append(pl.rest, r)
		}
	}
	pl.reads = factsRead(pl.rest)
}

// run lints a bundle whose model is whole: the per-concept step on each concept, the concepts
// spread over the workers, then the bundle step. A per-concept rule that panics is reported once
// and skipped for the concepts after, as in a Stream.
func (pl *plan) run(b *okf.Bundle) []okf.Diagnostic {
	cs := b.Concepts
	facts := make([]conceptFacts, len(cs))
	found := make([][]okf.Diagnostic, len(cs))
	failed := make([]atomic.Bool, len(pl.perConcept))
	var fallback schemaFallback
	var wg sync.WaitGroup
	var next atomic.Int64
	for range min(pl.workers, len(cs)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var st conceptState
			for {
				i := int(next.Add(1) - 1)
				if i >= len(cs) {
					return
				}
				facts[i] = pl.runPerConcept(&st, b.Alone(cs[i]), cs[i], pl.opts.Schemas, &fallback, failed)
				if out := st.fc.out; len(out) > 0 {
					found[i] = append([]okf.Diagnostic(nil), out...)
					clear(out)
				}
			}
		}()
	}
	wg.Wait()
	return pl.finish(b, pl.rest, facts, found, pl.dropFailed(found, failed))
}

// dropFailed leaves out of found the findings of the per-concept rules that panicked (failed), but
// the one finding saying so: which concepts a rule checked before it panicked depends on the order
// the concepts were checked in, concurrently, and the findings must not. It returns how many
// findings are left.
func (pl *plan) dropFailed(found [][]okf.Diagnostic, failed []atomic.Bool) int {
	var codes map[string]bool
	for k := range failed {
		if failed[k].Load() {
			if codes == nil {
				codes = map[string]bool{}
			}
			codes[pl.perConcept[k].Code] = true
		}
	}
	n := 0
	for i, ds := range found {
		if codes != nil {
			kept := ds[:0]
			for _, d := range ds {
				if !codes[d.Code] || d.Pos.Path == "" { // the failure has no position
					kept = append(kept, d)
				}
			}
			clear(ds[len(kept):])
			ds, found[i] = kept, kept
		}
		n += len(ds)
	}
	return n
}
