package lint

import (
	"sync"
	"sync/atomic"

	"github.com/okf-tools/okf/okf"
)

// Stream is a lint run whose per-concept rules run while the bundle loads, each concept's as soon
// as the concept is parsed, and which then keeps of each concept only the facts the rules that
// look across files read (conceptFacts), dropping its model (okf.Concept.Drop). A run with Run
// holds every concept's whole model until the last rule is done (on a 100,000-concept bundle, most
// of 900 MB); a Stream holds a few hundred bytes a concept, and the findings are the same, byte for
// byte (TestStreamMatchesRun, FuzzStreamMatchesRun).
//
// Use: s := NewStream(opts); pass s.OnConcept as okf.LoadOptions.OnConcept (and, as with Run,
// opts.Schemas.OnFrontmatter as OnFrontmatter, or the schema check parses every frontmatter
// again); load; then s.Finish(bundle) with the bundle loaded (with a bundle loaded without
// OnConcept, Finish does what Run does). The bundle's concepts are dropped as they load, so a caller
// that reads the model afterwards (lint.Fixes) uses Run instead. With a rule okf does not define
// among opts.Rules (it may read anything of the model), a Stream drops nothing and runs every rule
// in Finish, as Run does.
//
// One difference with Run, on a bug in okf only: a per-concept rule that panics is reported once,
// as under Run, and skipped for the concepts loaded after it; the findings it made on the
// concepts before it (in loading order, not in ID order) are kept.
type Stream struct {
	pl         *plan
	perConcept []*Rule // active rules run by OnConcept
	rest       []*Rule // active rules run by Finish
	whole      bool    // a rule okf does not define runs: nothing is done while loading
	failed     []atomic.Bool
	schemas    schemaFallback // the schema check's, for concepts opts.Schemas did not see

	state sync.Pool // of *conceptState

	mu    sync.Mutex
	facts map[*okf.Concept]conceptFacts // what the other rules read of each concept
	paths pathInterner                  // the paths the facts keep
	found [][]okf.Diagnostic            // each concept's findings, in chunks as they came
	n     int                           // findings in found
}

// NewStream prepares a run with opts, as Run would make it.
func NewStream(opts Options) *Stream {
	pl := newPlan(opts)
	s := &Stream{pl: pl, state: sync.Pool{New: func() any { return new(conceptState) }}, facts: map[*okf.Concept]conceptFacts{}, paths: pathInterner{}}
	s.perConcept, s.rest, s.whole = pl.splitRules()
	s.failed = make([]atomic.Bool, len(s.perConcept))
	return s
}

// splitRules parts the active rules into those run per concept and the rest. With a rule okf does
// not define among them (it may read anything of the model), whole is set and every rule is in rest.
func (pl *plan) splitRules() (perConcept, rest []*Rule, whole bool) {
	for _, r := range pl.active {
		if ByCode(r.Code) != r {
			whole = true
		}
	}
	for _, r := range pl.active {
		if perConceptRule(r) && !whole {
			perConcept = append(perConcept, r)
		} else {
			rest = append(rest, r)
		}
	}
	return perConcept, rest, whole
}

// perConceptRules are the rules whose findings about a concept depend on that concept alone, and
// on the bundle's file set (whether a linked or named file exists) or a file that is not a concept
// (a computation's SQL): run on a bundle that holds the concept alone (okf.LoadOptions.OnConcept),
// each reports what it reports in the whole bundle. Each reports on the concept's own file only.
//
// Not here, because they read other concepts, indexes, logs or the loader's diagnostics:
// title-duplicate (OKF108), legacy-timestamp (OKF308, whose severity depends on the whole bundle),
// status-unknown (OKF401, whose reading of status depends on the bundle's version),
// legacy-bundle, link-to-deprecated, link-anchor-missing, orphan, the index and log rules, the
// okf_version rules of the root index, the conformance rules and the engine rules but
// schema-mismatch (whose findings the loader's SchemaCheck already made for the concept; without
// one, the rule reads the concept's frontmatter again from its file, as Run does).
var perConceptRules = sync.OnceValue(func() map[*Rule]bool {
	return map[*Rule]bool{
		TitleMissing: true, DescriptionMissing: true, DescriptionNotOneSentence: true, DescriptionTooLong: true, TagsNotStringList: true,
		FieldNotString: true, BodyEmpty: true, HeadingMissing: true,
		TimestampDateOnly: true, TimestampNoOffset: true, TimestampEmpty: true, TimestampInvalid: true,
		GeneratedByMissing: true, VerifiedInvalid: true, VerifiedEntryIncomplete: true, ActorUnconventional: true,
		ActorTeam: true, ChangedSinceVerified: true, HumanAuthoredUnreviewed: true,
		Stale: true, ExpiringSoon: true,
		SourcesNotList: true, SourceResourceMissing: true, SourceIDDuplicate: true, FootnoteUnknownSource: true,
		SourceNeverCited: true, UsageCountWithoutWindow: true, UsageCountNotInteger: true, LegacyCitations: true,
		FootnoteUndefined: true,
		LinkBroken:        true, RootRelativePath: true, PathEscapes: true, SelfLink: true, LinkOutsideBundle: true,
		ComputationRuntimeMissing: true, ComputationCount: true, ParameterIncomplete: true, PlaceholderUndeclared: true,
		ParameterUnused: true, ReceiptNotList: true, AttesterUnresolved: true, ComputationFileMissing: true,
		ExecutorUnresolved: true, ComputationFieldsElsewhere: true, ComputationPartyMissing: true,
		SchemaMismatch: true,
	}
})

func perConceptRule(r *Rule) bool { return perConceptRules()[r] }

// OnConcept runs the per-concept rules on one concept, then strips it (see strip). The loader's
// workers call it concurrently.
func (s *Stream) OnConcept(one *okf.Bundle, c *okf.Concept) {
	if s.whole {
		return
	}
	pl := s.pl
	st := s.state.Get().(*conceptState)
	defer s.state.Put(st)
	fc := &st.fc
	f := pl.runPerConcept(st, one, c, s.perConcept, pl.opts.Schemas, &s.schemas, s.failed)
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
	s.paths.intern(&f)
	s.facts[c] = f
	if ds != nil {
		s.found = append(s.found, ds)
		s.n += len(ds)
	}
	s.mu.Unlock()
}

// runPerConcept runs the per-concept rules on c, in one (a bundle holding c alone that answers
// Stat, ResolvePath, ResolveLink and ReadFile for the whole bundle), into st's collector (st.fc.out),
// and returns c's facts for the rules that look across files: the one code path of a Stream's
// loading and of a Session's edit. With failed (a Stream's), a rule that panicked is reported once
// and skipped for the concepts after.
func (pl *plan) runPerConcept(st *conceptState, one *okf.Bundle, c *okf.Concept, rules []*Rule, schemas *SchemaCheck, fallback *schemaFallback, failed []atomic.Bool) conceptFacts {
	fc := &st.fc
	fc.path, fc.out = c.Path, fc.out[:0]
	st.links = linkTable{b: one}
	p := &st.pass
	*p = Pass{Bundle: one, Now: pl.opts.Now, ExpiringWithin: pl.window, cfg: pl.cfg, workers: 1,
		schemas: schemas, links: &st.links, report: fc.report, scratch: &st.scratch, fallback: fallback}
	for k, r := range rules {
		if failed != nil && failed[k].Load() {
			continue
		}
		fc.start()
		p.Rule = r
		if e := try(r, p); e != nil && (failed == nil || failed[k].CompareAndSwap(false, true)) {
			p.report(failure(r, e))
		}
		fc.flush()
	}
	f := factsOf(one, c, p.conceptLinks(0))
	*p = Pass{}
	st.links = linkTable{}
	return f
}

// conceptState is what OnConcept reuses from concept to concept (through a pool: the loader's
// workers call it concurrently): the pass, the findings so far and the rules' scratch.
type conceptState struct {
	pass    Pass
	fc      fileCollector
	links   linkTable
	scratch ruleScratch
}

// Finish runs the other rules over the loaded bundle and returns every finding, as Run does.
func (s *Stream) Finish(b *okf.Bundle) []okf.Diagnostic {
	found, n := s.found, s.n
	seen := s.facts
	s.found, s.facts = nil, nil
	if s.whole || len(seen) == 0 {
		// Nothing was done while loading (a rule okf does not define, or a bundle loaded without
		// OnConcept, whose model is whole): every rule runs now, as in Run.
		return s.pl.finish(b, s.pl.active, nil, nil, 0)
	}
	facts := make([]conceptFacts, len(b.Concepts))
	for i, c := range b.Concepts {
		f, ok := seen[c]
		if !ok {
			// Not seen by OnConcept: not a concept of the bundle it was given, which b must be
			// (its per-concept rules did not run). Its model is whole: its facts at least are right.
			f = factsOf(b, c, (&Pass{Bundle: b}).conceptLinks(i))
		}
		facts[i] = f
	}
	return s.pl.finish(b, s.rest, facts, found, n)
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
