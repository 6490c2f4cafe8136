package lint

import (
	"fmt"

	"github.com/okf-tools/okf/okf"
)

// MaxFindingsPerFile is how many findings one rule reports about one file; past it, one more
// finding (at the first left out) counts the rest. Bound: one file could otherwise hold hundreds of
// thousands (an 8 MiB line of broken links: 640,000), copies of it cost a pull request nothing, and
// every finding is kept until the report is sorted (a 4 MB file took 1.4 GB of memory in -f sarif).
// With it, what is kept is linear in the number of files, whatever they hold.
const MaxFindingsPerFile = 1000

// collector keeps one rule's findings, at most MaxFindingsPerFile per file. A rule reports from one
// goroutine at a time (Pass), so no lock is needed.
//
// It is built for the bundle where most files have a finding of most rules (17,000 findings on
// 3,400 files): the count per file sits in a slice indexed by the file's slot in a table shared by
// every rule (read-only while rules run), found from the last path reported without a lookup when
// the rule stays on one file; a map per rule keyed by path cost a tenth of the run in inserts and
// growth. Findings go into chunks that never move, rather than a slice that doubles and copies.
type collector struct {
	slots map[string]int32 // every file of the bundle → its slot; shared by all rules

	counts   []uint16       // findings so far per slot, saturating at MaxFindingsPerFile+1
	other    map[string]int // findings so far per path that has no slot (the configuration file)
	last     string         // the last path reported, and its slot (-1: none)
	lastSlot int32
	haveLast bool
	over     map[string]*overflow // files past the bound

	chunks [][]okf.Diagnostic
	n      int // findings kept
}

// overflow is a file past the bound: the first finding left out and how many the rule reported in
// all.
type overflow struct {
	first okf.Diagnostic
	total int
}

// pathSlots numbers every file a rule may report on.
func pathSlots(b *okf.Bundle) map[string]int32 {
	m := make(map[string]int32, len(b.Concepts)+len(b.Indexes)+len(b.Logs))
	add := func(p string) {
		if _, ok := m[p]; !ok {
			m[p] = int32(len(m))
		}
	}
	for _, c := range b.Concepts {
		add(c.Path)
	}
	for _, x := range b.Indexes {
		add(x.Path)
	}
	for _, l := range b.Logs {
		add(l.Path)
	}
	return m
}

// seen counts one more finding on path and returns how many came before it.
func (c *collector) seen(path string) int {
	if !c.haveLast || path != c.last {
		slot, ok := c.slots[path]
		if !ok {
			slot = -1
		}
		c.last, c.lastSlot, c.haveLast = path, slot, true
	}
	if c.lastSlot < 0 {
		if c.other == nil {
			c.other = map[string]int{}
		}
		n := c.other[path]
		c.other[path] = n + 1
		return n
	}
	if c.counts == nil {
		c.counts = make([]uint16, len(c.slots))
	}
	n := int(c.counts[c.lastSlot])
	if n <= MaxFindingsPerFile {
		c.counts[c.lastSlot]++
	}
	return n
}

// report is the rule's report function.
func (c *collector) report(d okf.Diagnostic) {
	if keep(&c.over, c.seen(d.Pos.Path), d) {
		c.push(d)
	}
}

// keep reports whether a rule's finding d, which comes after n of its findings on the same file,
// is kept; past the bound it is counted in over instead.
func keep(over *map[string]*overflow, n int, d okf.Diagnostic) bool {
	switch {
	case n < MaxFindingsPerFile:
		return true
	case n == MaxFindingsPerFile:
		if *over == nil {
			*over = map[string]*overflow{}
		}
		(*over)[d.Pos.Path] = &overflow{first: d, total: n + 1}
	default:
		(*over)[d.Pos.Path].total++
	}
	return false
}

// push appends a finding to the last chunk, starting a new one (twice as large, up to 1,024
// findings) when it is full.
func (c *collector) push(d okf.Diagnostic) {
	k := len(c.chunks) - 1
	if k < 0 || len(c.chunks[k]) == cap(c.chunks[k]) {
		size := 8
		if k >= 0 {
			size = min(2*cap(c.chunks[k]), 1024)
		}
		c.chunks = append(c.chunks, make([]okf.Diagnostic, 0, size))
		k++
	}
	c.chunks[k] = append(c.chunks[k], d)
	c.n++
}

// flush adds the finding that counts the rest of each file past the bound.
func (c *collector) flush() {
	for _, o := range c.over {
		c.push(o.finding())
	}
}

// finding is the finding that counts what was left out, at the first left out.
func (o *overflow) finding() okf.Diagnostic {
	d := o.first
	d.End = okf.Position{}
	d.Message = fmt.Sprintf("%d more findings of this rule in this file are not reported (okf reports at most %d per rule and file)",
		o.total-MaxFindingsPerFile, MaxFindingsPerFile)
	return d
}
