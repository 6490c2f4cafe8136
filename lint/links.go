package lint

import (
	"sync"

	"github.com/okf-tools/okf/okf"
)

// localLink is one body link resolved as resolveLocal resolves it.
type localLink struct {
	r     okf.Resolution
	local bool
}

// linkTable resolves each concept's body links once per run. Five rules (link-broken,
// link-to-deprecated, path-escapes, self-link, orphan) walk every link of every concept, and each
// resolved it again: on a generated wiki of 5,678 concepts with ~8 links each that was a tenth of
// okf lint's CPU. The rules run concurrently; the first to ask builds the table and the others
// wait for it.
type linkTable struct {
	once sync.Once
	b    *okf.Bundle
	res  [][]localLink // by concept index, then link index
}

func newLinkTable(b *okf.Bundle) *linkTable { return &linkTable{b: b} }

func (t *linkTable) build() {
	t.res = make([][]localLink, len(t.b.Concepts))
	n := 0
	for _, c := range t.b.Concepts {
		if c.Body != nil {
			n += len(c.Body.Links)
		}
	}
	all := make([]localLink, n) // one allocation for the whole table
	for i, c := range t.b.Concepts {
		if c.Body == nil {
			continue
		}
		row := all[:len(c.Body.Links):len(c.Body.Links)]
		all = all[len(c.Body.Links):]
		for j, l := range c.Body.Links {
			row[j].r, row[j].local = resolveLocal(t.b, c.Path, l.Target)
		}
		t.res[i] = row
	}
}

// conceptLinks returns the resolutions of the links of p.Bundle.Concepts[i], in c.Body.Links
// order. A Pass made outside Run (a test calling a rule directly) has no table and resolves here.
func (p *Pass) conceptLinks(i int) []localLink {
	if p.links != nil {
		p.links.once.Do(p.links.build)
		return p.links.res[i]
	}
	c := p.Bundle.Concepts[i]
	if c.Body == nil {
		return nil
	}
	row := make([]localLink, len(c.Body.Links))
	for j, l := range c.Body.Links {
		row[j].r, row[j].local = resolveLocal(p.Bundle, c.Path, l.Target)
	}
	return row
}
