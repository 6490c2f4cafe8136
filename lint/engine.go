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
//     facts of that concept the other rules read (only those: plan.facts, from their Rule.reads;
//     facts.go), each into its column;
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
	pl.facts = factsRead(pl.rest)
}

// newCells returns a cell for each fact of the plan, in plan.facts' order.
func (pl *plan) newCells() []cell {
	cells := make([]cell, len(pl.facts))
	for k, f := range pl.facts {
		cells[k] = f.newCell()
	}
	return cells
}

// newTable returns a table of the plan's facts for n concepts, every row zero.
func (pl *plan) newTable(n int) *factsTable {
	t := &factsTable{facts: pl.facts, cols: make([]column, len(pl.facts)), every: pl.every}
	for k, f := range pl.facts {
		t.cols[k] = f.newColumn(n)
	}
	return t
}

// run lints a bundle whose model is whole: the per-concept step on each concept, the concepts
// spread over the workers, then the bundle step. A per-concept rule that panics is reported once,
// as in a Stream (see failures).
func (pl *plan) run(b *okf.Bundle) []okf.Diagnostic {
	cs := b.Concepts
	facts := pl.newTable(len(cs))
	found := make([][]okf.Diagnostic, len(cs))
	failed := make(failures, len(pl.perConcept))
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
				pl.runPerConcept(&st, b.Alone(cs[i]), cs[i], pl.opts.Schemas, &fallback, failed)
				for k, col := range facts.cols { // each worker its own rows
					col.put(i, st.cells[k])
				}
				if out := st.fc.out; len(out) > 0 {
					found[i] = append([]okf.Diagnostic(nil), out...)
					clear(out)
				}
			}
		}()
	}
	wg.Wait()
	found, n := pl.dropFailed(found, failed)
	return pl.finish(b, pl.rest, facts, found, n)
}

// failures is what the per-concept step of Run and of a Stream keeps of the per-concept rules that
// panicked (a bug in okf), by rule: the first concept by path it panicked on, and with what. The
// rule is skipped on the concepts after that one by path, and still run on those before it, which
// the workers may reach later; so once every concept is checked, what is kept is the rule's
// failure on the first concept by path it fails on, whatever order the concepts were checked in
// (the panic of a rule that panics on every concept with a different value is reported the same on
// every run: TestPerConceptPanicIsDeterministic). That holds as long as whether and with what the
// rule panics depends only on the concept it checks, as a rule's findings do.
type failures []atomic.Pointer[failedOn]

// failedOn is a per-concept rule's panic: on the concept at path, with value.
type failedOn struct {
	path  string
	value any
}

// skip reports whether rule k need not run on the concept at path: it panicked on one before.
func (f failures) skip(k int, path string) bool {
	at := f[k].Load()
	return at != nil && path > at.path
}

// record keeps rule k's panic with e on the concept at path, unless one on a concept before it is
// kept.
func (f failures) record(k int, path string, e any) {
	on := &failedOn{path: path, value: e}
	for {
		at := f[k].Load()
		if at != nil && at.path <= path {
			return
		}
		if f[k].CompareAndSwap(at, on) {
			return
		}
	}
}

// dropFailed leaves out of found every finding of the per-concept rules that panicked (failed):
// which concepts such a rule checked depends on the order the concepts were checked in,
// concurrently, and the findings must not. It adds the one finding saying each failed (failure,
// with what it panicked with on the first concept by path), and returns found and how many
// findings it holds.
func (pl *plan) dropFailed(found [][]okf.Diagnostic, failed failures) ([][]okf.Diagnostic, int) {
	var codes map[string]bool
	var fails []okf.Diagnostic
	for k := range failed {
		if at := failed[k].Load(); at != nil {
			if codes == nil {
				codes = map[string]bool{}
			}
			r := pl.perConcept[k]
			codes[r.Code] = true
			fails = append(fails, failure(r, at.value))
		}
	}
	n := 0
	for i, ds := range found {
		if codes != nil {
			kept := ds[:0]
			for _, d := range ds {
				if !codes[d.Code] {
					kept = append(kept, d)
				}
			}
			clear(ds[len(kept):])
			ds, found[i] = kept, kept
		}
		n += len(ds)
	}
	if fails != nil {
		found = append(found, fails)
		n += len(fails)
	}
	return found, n
}
