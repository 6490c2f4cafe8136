package lint

import (
	"sort"
	"strings"
	"sync"

	"github.com/okf-tools/okf/okf"
)

// conceptFacts is what the rules that look across files read of a concept: title-duplicate,
// legacy-timestamp, legacy-bundle, link-to-deprecated, link-anchor-missing, orphan,
// concept-not-indexed and the inline suppressions. They read these and never the concept's model,
// so that a Stream can drop each concept's model once its own rules are done (a few hundred bytes
// kept per concept, not the ~4 KB of the model), and Run, which builds them from the model it
// holds, runs the same code.
type conceptFacts struct {
	present    bool // the frontmatter was read
	deprecated bool // status: deprecated (link-to-deprecated, as source and as target)
	v02        bool // it writes a field v0.2 added (legacy-bundle)
	// status is a `status` that is not draft, stable or deprecated (status-unknown), else nil.
	status *unknownStatus

	title       okf.Value // title-duplicate, concept-not-indexed
	description string    // description's text (concept-not-indexed)

	legacy   *legacyTimestamp // the v0.1 timestamp key, nil without one (or without frontmatter)
	cites    bool             // a `# Citations` list (legacy-bundle), and its first item's position
	citesPos okf.Position

	edges      []edgeTo       // links to other existing files of the bundle (link-to-deprecated, orphan)
	edgePath   string         // the file every edge's position is in (the concept's)
	edgePos    []okf.Position // the edges' positions, only when some is in another file than edgePath
	reach      []string       // files its path-valued fields name (orphan)
	frags      []edge         // links with a #fragment, as written (link-anchor-missing)
	headings   headingTexts   // heading texts, in order (link-anchor-missing, as a target)
	directives []okf.Comment  // inline lint directives (suppressions)
}

// headingTexts are a file's heading texts, in order, in one string: the text of heading i is
// all[ends[i-1]:ends[i]]. A large bundle keeps them for every concept until the end of the run,
// where one string and an offset a heading cost far less than a string each.
type headingTexts struct {
	all  string
	ends []int
}

func (h headingTexts) len() int { return len(h.ends) }

func (h headingTexts) at(i int) string {
	start := 0
	if i > 0 {
		start = h.ends[i-1]
	}
	return h.all[start:h.ends[i]]
}

// joinHeadings packs the texts of hs, nil-like when there are none.
func joinHeadings(hs []okf.Heading) headingTexts {
	if len(hs) == 0 {
		return headingTexts{}
	}
	n := 0
	for _, h := range hs {
		n += len(h.Text)
	}
	var sb strings.Builder
	sb.Grow(n)
	ends := make([]int, len(hs))
	for i, h := range hs {
		sb.WriteString(h.Text)
		ends[i] = sb.Len()
	}
	return headingTexts{all: sb.String(), ends: ends}
}

// unknownStatus is a concept's `status` v0.2 does not define: where, its value as written ("" when
// it is no scalar), and the status-unknown message about it.
type unknownStatus struct {
	pos okf.Position
	raw string
	msg string
}

// legacyTimestamp is a concept's v0.1 `timestamp` (legacy-timestamp).
type legacyTimestamp struct {
	ts        okf.Timestamp
	pos       okf.Position // the key's
	generated bool         // generated is written too
}

// edgeTo is a body link to another file that exists (not a folder), resolved, and where it is
// written (in the file edgePath): a large bundle keeps several for every concept to the end of the
// run, and their targets are few strings shared (see pathInterner).
type edgeTo struct {
	target    string
	line, col int32
}

// edgeAt is the position of edge k.
func (f *conceptFacts) edgeAt(k int) okf.Position {
	if f.edgePos != nil {
		return f.edgePos[k]
	}
	return okf.Position{Path: f.edgePath, Line: f.edges[k].line, Col: f.edges[k].col}
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

// intern makes f's paths in's.
func (in pathInterner) intern(f *conceptFacts) {
	for k := range f.edges {
		f.edges[k].target = in.of(f.edges[k].target)
	}
	for k := range f.reach {
		f.reach[k] = in.of(f.reach[k])
	}
}

// edge is a link with a #fragment, its target as written (link-anchor-missing).
type edge struct {
	target string
	pos    okf.Position
}

// factsOf extracts a concept's facts; links are its body links resolved (Pass.conceptLinks).
func factsOf(b *okf.Bundle, c *okf.Concept, links []localLink) conceptFacts {
	fm, body := c.Frontmatter, c.Body
	if fm == nil || body == nil { // never so from the loader; a library caller's bundle may be
		return conceptFacts{}
	}
	f := conceptFacts{present: fm.Present}
	if s, _ := okf.StatusOf(fm.Status); s == okf.Deprecated {
		f.deprecated = true
	}
	f.title = fm.Title
	if fm.Present {
		f.v02 = hasV02Field(fm)
		f.status = statusFact(c, fm)
		if fm.LegacyTimestamp.Form != okf.TimeAbsent {
			f.legacy = &legacyTimestamp{ts: fm.LegacyTimestamp, pos: fm.KeyPos("timestamp"), generated: fm.Generated != nil}
		}
		var fields []pathField
		for _, pf := range pathFields(fields, fm) {
			if r := b.ResolvePath(c.Path, pf.v.Raw); r.Kind == okf.RefLocal && r.Exists && !r.Escapes && r.Target != c.Path {
				f.reach = append(f.reach, r.Target)
			}
		}
	}
	f.description = fm.Description.Text()
	if len(body.Citations) > 0 {
		f.cites, f.citesPos = true, body.Citations[0].Pos
	}
	// Both lists are kept to the end of the run: counted first, made at their length.
	isEdge := func(x localLink) bool { return x.local && x.r.Exists && !x.r.IsDir && x.r.Target != c.Path }
	isFrag := func(l okf.Link) bool {
		i := strings.IndexByte(l.Target, '#')
		return i >= 0 && i < len(l.Target)-1 && !l.Image
	}
	edges, frags := 0, 0
	for _, x := range links {
		if isEdge(x) {
			edges++
		}
	}
	for _, l := range body.Links {
		if isFrag(l) {
			frags++
		}
	}
	if edges > 0 {
		f.edges = make([]edgeTo, 0, edges)
		f.edgePath = c.Path
		for j, x := range links {
			if isEdge(x) {
				pos := body.Links[j].Pos
				if pos.Path != f.edgePath && f.edgePos == nil { // never from the loader
					f.edgePos = make([]okf.Position, len(f.edges), edges)
					for k, e := range f.edges {
						f.edgePos[k] = okf.Position{Path: f.edgePath, Line: e.line, Col: e.col}
					}
				}
				if f.edgePos != nil {
					f.edgePos = append(f.edgePos, pos)
				}
				f.edges = append(f.edges, edgeTo{target: x.r.Target, line: pos.Line, col: pos.Col})
			}
		}
	}
	if frags > 0 {
		f.frags = make([]edge, 0, frags)
		for _, l := range body.Links {
			if isFrag(l) {
				f.frags = append(f.frags, edge{target: l.Target, pos: l.Pos})
			}
		}
	}
	f.headings = joinHeadings(body.Headings)
	for _, cm := range body.Comments {
		if strings.HasPrefix(cm.Text, directivePrefix) {
			// A copy: the text is cut from the whole comment block's, which may be long.
			cm.Text = strings.Clone(cm.Text)
			f.directives = append(f.directives, cm)
		}
	}
	return f
}

// factsTable holds the facts of every concept of a bundle, by concept index: given (a Stream made
// them while loading) or built from the model on first use (Run).
type factsTable struct {
	once  sync.Once
	b     *okf.Bundle
	links *linkTable
	all   []conceptFacts
}

func (t *factsTable) build() {
	if t.all != nil {
		return
	}
	t.all = make([]conceptFacts, len(t.b.Concepts))
	p := &Pass{Bundle: t.b, links: t.links}
	for i, c := range t.b.Concepts {
		t.all[i] = factsOf(t.b, c, p.conceptLinks(i))
	}
}

// facts returns the facts of every concept of the pass's bundle, by index. A Pass made outside
// Run and Stream (a test calling a rule directly) builds them here.
func (p *Pass) facts() []conceptFacts {
	if p.factTable == nil {
		p.factTable = &factsTable{b: p.Bundle, links: p.links}
	}
	p.factTable.once.Do(p.factTable.build)
	return p.factTable.all
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
