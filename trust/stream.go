package trust

import (
	"sync"

	"github.com/okf-tools/okf/okf"
)

// Stream builds a report while the bundle loads: each concept's row is made as soon as the concept
// is parsed, and its model is dropped (okf.Concept.Drop), so that a large bundle is never held
// whole; what relates concepts to each other (lineage, "used by") is resolved in Finish, from the
// rows. The report is the same as Build's (TestStreamMatchesBuild).
//
// Use: s := NewStream(opts); pass s.OnConcept as okf.LoadOptions.OnConcept; load; then
// s.Finish(bundle) with the bundle loaded. The bundle's files are still read afterwards (Compare
// reads them), its concepts' models are not.
type Stream struct {
	opts Options
	mu   sync.Mutex
	rows map[*okf.Concept]*Concept
}

// NewStream prepares a report with opts, as Build would make it.
func NewStream(opts Options) *Stream {
	return &Stream{opts: opts, rows: map[*okf.Concept]*Concept{}}
}

// OnConcept makes one concept's row and drops its model. The loader's workers call it
// concurrently; one answers for the whole bundle's files (okf.LoadOptions.OnConcept).
func (s *Stream) OnConcept(one *okf.Bundle, c *okf.Concept) {
	rc := row(one, c, s.opts)
	c.Drop()
	s.mu.Lock()
	s.rows[c] = rc
	s.mu.Unlock()
}

// Finish makes the report of the loaded bundle. A concept OnConcept did not see (a bundle loaded
// without it) has its model whole, and gets its row here.
func (s *Stream) Finish(b *okf.Bundle) *Report {
	all := make([]*Concept, len(b.Concepts))
	for i, c := range b.Concepts {
		rc, ok := s.rows[c]
		if !ok {
			rc = row(b, c, s.opts)
		}
		all[i] = rc
	}
	s.rows = nil
	return assemble(newReport(b, s.opts), b, all, s.opts)
}
