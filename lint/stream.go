package lint

import (
	"sync"

	"github.com/okf-tools/okf/okf"
)

// Stream is a lint run whose per-concept rules run while the bundle loads, each concept's as soon
// as the concept is parsed, and which then keeps of each concept only the facts the rules that
// look across files read (facts.go), dropping its model (okf.Concept.Drop). A run with Run
// holds every concept's whole model until the last rule is done (on a 100,000-concept bundle, most
// of 900 MB); a Stream holds a few hundred bytes a concept, and the findings are the same, byte for
// byte (TestStreamMatchesRun, FuzzStreamMatchesRun).
//
// Use: s := NewStream(opts); pass s.OnConcept as okf.LoadOptions.OnConcept (and, as with Run,
// opts.Schemas.OnFrontmatter as OnFrontmatter, or the schema check parses every frontmatter
// again); load; then s.Finish(bundle) with the bundle loaded (with a bundle loaded without
// OnConcept, Finish does what Run does). The bundle's concepts are dropped as they load, so a caller
// that reads the model afterwards (lint.Fixes) uses Run instead. With a rule among opts.Rules that
// reads the whole model (ScopeModel: a rule written outside okf that declares no scope), a Stream
// drops nothing and runs both steps in Finish, as Run does.
//
// A Stream and Run are the same two steps (engine.go), so the findings are the same by
// construction. A per-concept rule that panics (a bug in okf) is reported once, with what it
// panicked with on the first concept by path it fails on, and skipped for the concepts after that
// one; its other findings are left out (plan.dropFailed). So the result does not depend on the
// order the concepts loaded in, as long as the rule's panic depends only on the concept it checks
// (see failures).
type Stream struct {
	pl      *plan
	failed  failures       // the per-concept rules that panicked (reported once: see failures)
	schemas schemaFallback // the schema check's, for concepts opts.Schemas did not see

	state sync.Pool // of *conceptState

	mu    sync.Mutex
	facts *factsTable          // what the other rules read of each concept, by row: in the order they came
	rows  map[*okf.Concept]int // each concept's row: its last, if a caller handed it twice
	// pushed counts the rows every column holds (one a call of OnConcept).
	pushed int
	paths  pathInterner       // the paths the facts keep
	found  [][]okf.Diagnostic // each concept's findings, in chunks as they came
}

// NewStream prepares a run with opts, as Run would make it.
func NewStream(opts Options) *Stream {
	pl := newPlan(opts)
	s := &Stream{pl: pl, state: sync.Pool{New: func() any { return new(conceptState) }},
		facts: pl.newTable(0), rows: map[*okf.Concept]int{}, paths: pathInterner{}}
	s.failed = make(failures, len(pl.perConcept))
	return s
}

// OnConcept runs the per-concept rules on one concept, then strips it (see strip). The loader's
// workers call it concurrently.
func (s *Stream) OnConcept(one *okf.Bundle, c *okf.Concept) {
	pl := s.pl
	if pl.whole {
		return
	}
	st := s.state.Get().(*conceptState)
	defer s.state.Put(st)
	fc := &st.fc
	pl.runPerConcept(st, one, c, pl.opts.Schemas, &s.schemas, s.failed)
	pl.opts.Schemas.forget(c)
	c.Drop()
	var ds []okf.Diagnostic
	if len(fc.out) > 0 {
		ds = make([]okf.Diagnostic, len(fc.out)) // kept: fc.out is the next concept's
		copy(ds, fc.out)
		clear(fc.out) // no message kept alive from the pool
		if cap(fc.out) > 1<<12 {
			fc.out = nil // a hostile file's thousands of findings are not kept for the next concept
		}
	}
	s.mu.Lock()
	s.rows[c] = s.pushed
	s.pushed++
	for k, col := range s.facts.cols {
		col.push(st.cells[k], s.paths)
	}
	if ds != nil {
		s.found = append(s.found, ds)
	}
	s.mu.Unlock()
}

// runPerConcept is the per-concept step (engine.go): it runs the per-concept rules on c, in one (a
// bundle holding c alone that answers Stat, ResolvePath and ResolveLink for the whole bundle, and
// ReadFile for its files but the other .md ones), into st's collector (st.fc.out), and computes
// the facts of c the bundle step reads into st's cells (st.cells, one per fact of plan.facts): the
// one code path of Run, of a Stream's loading and of a Session's edit. With failed (Run's and a
// Stream's), a rule that panics is recorded there, not reported (plan.dropFailed reports it once),
// and skipped on the concepts after by path; without (a Session's), it is reported on c.
func (pl *plan) runPerConcept(st *conceptState, one *okf.Bundle, c *okf.Concept, schemas *SchemaCheck, fallback *schemaFallback, failed failures) {
	fc := &st.fc
	fc.path, fc.out = c.Path, fc.out[:0]
	st.links = linkTable{b: one}
	p := &st.pass
	*p = Pass{Bundle: one, Now: pl.opts.Now, ExpiringWithin: pl.window, cfg: pl.cfg, workers: 1,
		schemas: schemas, links: &st.links, report: fc.report, scratch: &st.scratch, fallback: fallback}
	for k, r := range pl.perConcept {
		if failed != nil && failed.skip(k, c.Path) {
			continue
		}
		fc.start()
		p.Rule = r
		if e := try(r, p); e != nil {
			if failed != nil {
				failed.record(k, c.Path, e)
			} else {
				p.report(failure(r, e))
			}
		}
		fc.flush()
	}
	if st.cells == nil {
		st.cells = pl.newCells()
	}
	st.in = factInput{b: one, c: c, fm: c.Frontmatter, body: c.Body, p: p, i: 0}
	for _, x := range st.cells {
		x.fill(&st.in)
	}
	st.in = factInput{}
	*p = Pass{}
	st.links = linkTable{}
}

// conceptState is what OnConcept reuses from concept to concept (through a pool: the loader's
// workers call it concurrently): the pass, the findings so far, the rules' scratch and the cells
// the concept's facts are computed in.
type conceptState struct {
	pass    Pass
	fc      fileCollector
	links   linkTable
	scratch ruleScratch
	cells   []cell
	in      factInput // what the cells are computed from (kept here: one made per concept escapes to the heap)
}

// Finish runs the other rules over the loaded bundle and returns every finding, as Run does.
func (s *Stream) Finish(b *okf.Bundle) []okf.Diagnostic {
	found, facts, rows, pushed := s.found, s.facts, s.rows, s.pushed
	s.found, s.facts, s.rows, s.paths, s.pushed = nil, nil, nil, nil, 0
	if s.pl.whole || len(rows) == 0 {
		// Nothing was done while loading (a rule that reads the whole model, or a bundle loaded
		// without OnConcept, whose model is whole): both steps run now, as in Run.
		return s.pl.run(b)
	}
	// Each column is laid out again by concept index.
	dest := make([]int32, pushed)
	for r := range dest {
		dest[r] = -1 // a concept of another bundle: left out
	}
	var unseen []int
	for i, c := range b.Concepts {
		if r, ok := rows[c]; ok {
			dest[r] = int32(i)
		} else {
			unseen = append(unseen, i)
		}
	}
	rows = nil
	for k, col := range facts.cols { // the pushed rows of each left to the collector once gathered
		facts.cols[k] = col.gather(dest, len(b.Concepts))
	}
	if unseen != nil {
		// Not seen by OnConcept: not a concept of the bundle it was given, which b must be (its
		// per-concept rules did not run). Its model is whole: its facts at least are right.
		cells := s.pl.newCells()
		p := &Pass{Bundle: b}
		for _, i := range unseen {
			c := b.Concepts[i]
			in := factInput{b: b, c: c, fm: c.Frontmatter, body: c.Body, p: p, i: i}
			for k, x := range cells {
				x.fill(&in)
				facts.cols[k].put(i, x)
			}
		}
	}
	found, n := s.pl.dropFailed(found, s.failed)
	return s.pl.finish(b, s.pl.rest, facts, found, n)
}

// fileCollector keeps the findings the per-concept rules report on one concept, at most
// MaxFindingsPerFile per rule and file as collector does: all of a per-concept rule's findings
// about the concept come from its one call on it, so the bound counts exactly what it counts in
// Run.
type fileCollector struct {
	path  string
	n     int            // findings of the current rule on path
	other map[string]int // … on any other path (none expected)
	over  map[string]*overflow
	out   []okf.Diagnostic
}

// start begins the next rule.
func (fc *fileCollector) start() { fc.n, fc.other, fc.over = 0, nil, nil }

func (fc *fileCollector) report(d okf.Diagnostic) {
	var n int
	if d.Pos.Path == fc.path {
		n = fc.n
		fc.n++
	} else {
		if fc.other == nil {
			fc.other = map[string]int{}
		}
		n = fc.other[d.Pos.Path]
		fc.other[d.Pos.Path] = n + 1
	}
	if keep(&fc.over, n, d) {
		fc.out = append(fc.out, d)
	}
}

// flush adds the finding that counts the rest past the bound, as collector.flush does.
func (fc *fileCollector) flush() {
	for _, o := range fc.over {
		fc.out = append(fc.out, o.finding())
	}
}
