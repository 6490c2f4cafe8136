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

	edges      []edge        // links to other existing files of the bundle (link-to-deprecated, orphan)
	reach      []string      // files its path-valued fields name (orphan)
	frags      []okf.Link    // links with a #fragment (link-anchor-missing)
	headings   []string      // heading texts, in order (link-anchor-missing, as a target)
	directives []okf.Comment // inline lint directives (suppressions)
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

// edge is a body link to another file that exists (not a folder), resolved.
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
	for j, x := range links {
		if x.local && x.r.Exists && !x.r.IsDir && x.r.Target != c.Path {
			f.edges = append(f.edges, edge{target: x.r.Target, pos: body.Links[j].Pos})
		}
	}
	for _, l := range body.Links {
		if i := strings.IndexByte(l.Target, '#'); i >= 0 && i < len(l.Target)-1 && !l.Image {
			f.frags = append(f.frags, okf.Link{Target: l.Target, Pos: l.Pos})
		}
	}
	if len(body.Headings) > 0 {
		f.headings = make([]string, len(body.Headings))
		for i, h := range body.Headings {
			f.headings[i] = h.Text
		}
	}
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
