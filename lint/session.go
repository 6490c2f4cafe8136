package lint

import (
	"slices"

	"github.com/okf-tools/okf/okf"
)

// Session is a lint run kept across edits of one bundle, for an editor (okf lsp): a keystroke
// changes one concept (okf.Bundle.WithFile), and Check runs the per-concept rules on that concept
// alone, keeping every other concept's findings and facts from before, then the rules that look
// across files (titles, orphans, indexes, logs) over the facts of all. The findings are those Run
// gives on the same bundle (TestSessionMatchesRun).
//
// What a concept's per-concept findings depend on beside the concept is the bundle's file set (a
// link to a file that exists): when it changes, every concept is checked again. A changed
// configuration is a new Session.
type Session struct {
	pl      *plan
	schemas schemaFallback

	files []string                     // the file set cache was made with
	cache map[*okf.Concept]sessionFind // by the concept's value: WithFile makes a new one for a change
}

type sessionFind struct {
	cells []cell // the concept's facts, one cell per fact of the plan
	ds    []okf.Diagnostic
}

// NewSession prepares a run with opts, as Run would make it. opts.Schemas is not used (the schema
// check reads each concept it checks).
func NewSession(opts Options) *Session {
	opts.Schemas = nil
	pl := newPlan(opts)
	return &Session{pl: pl, cache: map[*okf.Concept]sessionFind{}}
}

// Check lints b, a bundle of the session's (loaded, or derived with WithFile from one that was),
// and returns every finding, as Run does. Concepts checked before, unchanged, are not checked
// again.
func (s *Session) Check(b *okf.Bundle) []okf.Diagnostic {
	if s.pl.whole {
		return s.pl.run(b) // a rule reads the whole model: nothing is kept between edits
	}
	if files := b.Files(); !slices.Equal(files, s.files) {
		s.files, s.cache = files, map[*okf.Concept]sessionFind{}
	}
	next := make(map[*okf.Concept]sessionFind, len(b.Concepts))
	facts := s.pl.newTable(len(b.Concepts))
	var found [][]okf.Diagnostic
	n := 0
	for i, c := range b.Concepts {
		f, ok := s.cache[c]
		if !ok {
			f = s.checkConcept(b, c)
		}
		next[c] = f
		for k, col := range facts.cols {
			col.put(i, f.cells[k])
		}
		if len(f.ds) > 0 {
			// finish consumes what it is given: the cache keeps its own.
			found = append(found, slices.Clone(f.ds))
			n += len(f.ds)
		}
	}
	s.cache = next
	return s.pl.finish(b, s.pl.rest, facts, found, n)
}

// checkConcept runs the per-concept rules on c as a Stream does while loading (runPerConcept), on
// a bundle holding c alone that answers for the whole of b.
func (s *Session) checkConcept(b *okf.Bundle, c *okf.Concept) sessionFind {
	var st conceptState // its cells are the concept's: kept
	s.pl.runPerConcept(&st, b.Alone(c), c, nil, &s.schemas, nil)
	return sessionFind{cells: st.cells, ds: st.fc.out}
}
