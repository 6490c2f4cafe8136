package lint

import (
	"fmt"
	"sort"
	"strings"
	"sync"

	"github.com/okf-tools/okf/okf"
)

// Facts are what the rules that look across files (ScopeBundle) read of the concepts: never the
// concepts' model, which a Stream drops once each concept's own rules are done (a few hundred bytes
// kept per concept, not the ~4 KB of the model). A fact is a value, as a go/analysis analyzer's
// result is: its name, its doc and how it is computed from one concept (fact.of), declared in the
// file of the rule that reads it (this file holds the few that several rules read). A rule lists
// the facts it reads (Rule.reads); a run computes, for each concept, the facts its rules read and no
// other (plan.facts), in the per-concept step (engine.go), and keeps each in a column, a slice by
// concept index (factsTable): a fact no rule of the run reads costs nothing. A rule reads a column
// with fact.all, which refuses (the rule fails, loudly) a fact the rule does not declare.
//
// A new fact is a var in the rule's file:
//
//	// factHeadings: … (who reads it, and why it is kept the way it is)
//	var factHeadings = &fact[headingTexts]{name: "headings", doc: "…",
//		of: func(in *factInput) headingTexts { return joinHeadings(in.body.Headings) }}
//
// and the rule lists it in reads; the engine, the Stream, the Session and the tests need nothing
// else. A fact's value is kept for every concept to the end of the run: keep it small (a bool, a
// pointer that is nil for most concepts, lists made at their length, strings copied out of larger
// ones), and give it a share hook when its strings repeat across concepts (the paths a Stream
// interns, see pathInterner).
type fact[T any] struct {
	// name is kebab-case, unique among the facts (TestFactNamesUnique), for messages.
	name string
	// doc says what the fact holds of a concept, and which rules read it.
	doc string
	// of computes the fact of in's concept. It is called only for a concept with a frontmatter and a
	// body (every concept the loader makes); the fact of another is the zero value.
	of func(in *factInput) T
	// share, when not nil, makes v's strings the Stream's shared ones (pathInterner); it runs under
	// the Stream's lock.
	share func(v *T, paths pathInterner)
}

// factRef is a fact of any type: what the engine and the declarations need of it.
type factRef interface {
	factName() string
	factDoc() string
	computes() bool // it has an extractor
	newCell() cell  // a place to compute one concept's value in
	newColumn(n int) column
}

func (f *fact[T]) factName() string { return f.name }
func (f *fact[T]) factDoc() string  { return f.doc }
func (f *fact[T]) computes() bool   { return f.of != nil }
func (f *fact[T]) newCell() cell    { return &factCell[T]{f: f} }
func (f *fact[T]) newColumn(n int) column {
	return &factColumn[T]{f: f, vals: make([]T, n)}
}

// all returns the fact of every concept of the pass's bundle, by concept index. The pass's rule
// must declare it (Rule.reads): a rule reading a fact it does not declare fails (a bug in okf,
// reported as such), where the run would otherwise hand it a column the run did not compute.
func (f *fact[T]) all(p *Pass) []T {
	return p.column(f).(*factColumn[T]).vals
}

// factInput is what a fact is computed from: one concept, with its frontmatter and body (never
// nil), in its bundle or a view of it holding the concept alone (okf.Bundle.Alone), which answers
// Stat, ResolvePath and ResolveLink for the whole bundle.
type factInput struct {
	b    *okf.Bundle
	c    *okf.Concept
	fm   *okf.Frontmatter
	body *okf.Body
	p    *Pass // the pass whose link table holds the concept's links, as concept i
	i    int
}

// links returns the concept's body links, resolved (Pass.conceptLinks): once for the rules and the
// facts of a concept.
func (in *factInput) links() []localLink { return in.p.conceptLinks(in.i) }

// cell holds one concept's value of one fact, computed ahead of being put in a column: the
// per-concept step computes every fact of a concept into its cells (one per fact of the plan, reused
// from concept to concept), then Run puts them at the concept's index, a Stream at the next row
// under its lock, a Session keeps them for the concepts an edit leaves alone.
type cell interface {
	fill(in *factInput)
}

type factCell[T any] struct {
	f *fact[T]
	v T
}

func (c *factCell[T]) fill(in *factInput) {
	var zero T
	c.v = zero
	if in.fm != nil && in.body != nil { // never nil from the loader; a library caller's bundle may be
		c.v = c.f.of(in)
	}
}

// column holds one fact of every concept: by concept index (vals), or, while a Stream loads, in
// the order the concepts came (pushed, then gathered by concept index).
type column interface {
	// put sets row i to c's value.
	put(i int, c cell)
	// push adds c's value after the rows pushed before, its strings made paths'.
	push(c cell, paths pathInterner)
	// gather returns a column of n rows by concept index: pushed row r is row dest[r] (left out
	// when dest[r] < 0); the rows no pushed row fills are zero.
	gather(dest []int32, n int) column
}

type factColumn[T any] struct {
	f    *fact[T]
	vals []T
	// pushed are a Stream's rows in chunks, each twice as long as the one before up to
	// maxChunkRows: appending to one slice would copy every row each time it grows (~1.5 KB more
	// allocated a concept for all the facts), and a full chunk stays where it is.
	pushed [][]T
}

const firstChunkRows, maxChunkRows = 64, 8192

func (c *factColumn[T]) put(i int, x cell) { c.vals[i] = x.(*factCell[T]).v }

func (c *factColumn[T]) push(x cell, paths pathInterner) {
	last := len(c.pushed) - 1
	if last < 0 || len(c.pushed[last]) == cap(c.pushed[last]) {
		n := firstChunkRows
		if last >= 0 {
			n = min(2*cap(c.pushed[last]), maxChunkRows)
		}
		c.pushed = append(c.pushed, make([]T, 0, n))
		last++
	}
	ch := append(c.pushed[last], x.(*factCell[T]).v)
	c.pushed[last] = ch
	if paths != nil && c.f.share != nil {
		c.f.share(&ch[len(ch)-1], paths) // in place: a copy's address would escape, a value a row
	}
}

func (c *factColumn[T]) gather(dest []int32, n int) column {
	out := make([]T, n)
	r := 0
	for _, ch := range c.pushed {
		for _, v := range ch {
			if d := dest[r]; d >= 0 {
				out[d] = v
			}
			r++
		}
	}
	return &factColumn[T]{f: c.f, vals: out}
}

// factsTable holds the facts of every concept of a bundle the rules of a run read: given, one column
// per fact of facts (the per-concept step computed them), or, with b set, computed from the model
// b holds, each fact on its first use (a Pass made outside Run and Stream, or the bundle step run
// over a whole model).
type factsTable struct {
	facts []factRef
	cols  []column
	// every lets a rule read a fact it does not declare: the runs the declaration tests compare with.
	every bool

	mu    sync.Mutex // b's columns are computed on first use, by rules running concurrently
	b     *okf.Bundle
	links *linkTable
}

// column returns fact f's column, for the pass's rule.
func (p *Pass) column(f factRef) column {
	if p.factTable == nil {
		p.factTable = &factsTable{b: p.Bundle, links: p.links}
	}
	t := p.factTable
	if r := p.Rule; r != nil && r.Scope != ScopeModel && !t.every && !r.declares(f) {
		panic(fmt.Sprintf("it reads the fact %q without declaring it (Rule.reads)", f.factName()))
	}
	if t.b == nil {
		for k, g := range t.facts {
			if g == f {
				return t.cols[k]
			}
		}
		panic(fmt.Sprintf("the fact %q was not computed for this run", f.factName()))
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	for k, g := range t.facts {
		if g == f {
			return t.cols[k]
		}
	}
	col := computeColumn(t.b, t.links, f)
	t.facts, t.cols = append(t.facts, f), append(t.cols, col)
	return col
}

// computeColumn computes fact f of every concept of b from its model.
func computeColumn(b *okf.Bundle, links *linkTable, f factRef) column {
	col := f.newColumn(len(b.Concepts))
	x := f.newCell()
	p := &Pass{Bundle: b, links: links}
	for i, c := range b.Concepts {
		x.fill(&factInput{b: b, c: c, fm: c.Frontmatter, body: c.Body, p: p, i: i})
		col.put(i, x)
	}
	return col
}

// The facts several rules read, and the engine's.

// factPresent: the frontmatter was read (title-duplicate, orphan, legacy-bundle, status-unknown:
// a concept without one is reported by the conformance rules, not theirs).
var factPresent = &fact[bool]{name: "present", doc: "whether the concept's frontmatter was read",
	of: func(in *factInput) bool { return in.fm.Present }}

// factTitle: the `title` as written (title-duplicate compares it, concept-not-indexed writes it
// into the index entry it suggests).
var factTitle = &fact[okf.Value]{name: "title", doc: "the concept's `title` value, as written",
	of: func(in *factInput) okf.Value { return in.fm.Title }}

// factDirectives: the inline lint directives (the engine's suppressions). A copy of each: the text
// is cut from the whole comment block's, which may be long.
var factDirectives = &fact[[]okf.Comment]{name: "directives", doc: "the concept's inline okf-lint- comments, copied",
	of: func(in *factInput) []okf.Comment {
		var out []okf.Comment
		for _, cm := range in.body.Comments {
			if strings.HasPrefix(cm.Text, directivePrefix) {
				cm.Text = strings.Clone(cm.Text)
				out = append(out, cm)
			}
		}
		return out
	}}

// factEdges: the concept's body links to other files of the bundle that exist (not folders),
// resolved (link-to-deprecated, orphan). A large bundle keeps several for every concept to the end
// of the run: each keeps its target, a string the Stream shares (pathInterner), and its line and
// column, its file being the concept's.
var factEdges = &fact[edgeList]{name: "edges", doc: "the concept's body links to other existing files, resolved, with their positions",
	of: edgesOf,
	share: func(v *edgeList, paths pathInterner) {
		for k := range v.to {
			v.to[k].target = paths.of(v.to[k].target)
		}
	}}

// edgeList is a concept's edges: their targets and where they are written, in the concept's file
// (pos is nil then: the line and column are in to), or, when a library caller's link names another
// file, every position whole.
type edgeList struct {
	to  []edgeTo
	pos []okf.Position
}

// edgeTo is a body link to another file that exists, resolved, and its line and column.
type edgeTo struct {
	target    string
	line, col int32
}

// at is the position of edge k of the concept at path.
func (e edgeList) at(k int, path string) okf.Position {
	if e.pos != nil {
		return e.pos[k]
	}
	return okf.Position{Path: path, Line: e.to[k].line, Col: e.to[k].col}
}

func edgesOf(in *factInput) edgeList {
	c := in.c
	links := in.links()
	isEdge := func(x localLink) bool { return x.local && x.r.Exists && !x.r.IsDir && x.r.Target != c.Path }
	n := 0 // kept to the end of the run: counted first, made at its length
	for _, x := range links {
		if isEdge(x) {
			n++
		}
	}
	if n == 0 {
		return edgeList{}
	}
	e := edgeList{to: make([]edgeTo, 0, n)}
	for j, x := range links {
		if !isEdge(x) {
			continue
		}
		pos := in.body.Links[j].Pos
		if pos.Path != c.Path && e.pos == nil { // never from the loader
			e.pos = make([]okf.Position, len(e.to), n)
			for k, t := range e.to {
				e.pos[k] = okf.Position{Path: c.Path, Line: t.line, Col: t.col}
			}
		}
		if e.pos != nil {
			e.pos = append(e.pos, pos)
		}
		e.to = append(e.to, edgeTo{target: x.r.Target, line: pos.Line, col: pos.Col})
	}
	return e
}

// pathInterner gives each path the facts of a Stream keep one string: every concept's edges to a
// file name it, by strings the parser made for each link (or cut from its target).
type pathInterner map[string]string

func (in pathInterner) of(p string) string {
	if q, ok := in[p]; ok {
		return q
	}
	in[p] = p
	return p
}

// conceptIndex returns the index in b.Concepts (sorted by ID) of the concept whose file is at the
// slash path p, or -1.
func conceptIndex(b *okf.Bundle, p string) int {
	id, ok := strings.CutSuffix(p, ".md")
	if !ok {
		return -1
	}
	cs := b.Concepts
	i := sort.Search(len(cs), func(i int) bool { return cs[i].ID >= id })
	if i < len(cs) && cs[i].ID == id {
		return i
	}
	return -1
}
