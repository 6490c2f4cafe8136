package okf

import (
	"bytes"
	"fmt"

	"github.com/okf-tools/okf/okf/internal/fastmd"
)

// The Markdown parser (goldmark) spends time superlinear in some shapes of text that no real body
// has. tameBody finds them before it runs, with a linear scan, and blanks them (every byte but line
// ends becomes a space, so every other offset, line and column stays right); each blanked stretch is
// a finding, and the rest of the body is parsed as usual. The shapes and their bounds:
//
//   - Container depth on one line: a line opening more than maxQuoteDepth block quotes, list items
//     and footnote definitions (goldmark: depth² per line; 100,000 `>` took 7 s, 50,000 `- ` 11 s).
//   - Container depth across lines: every line costs goldmark one step per container it is in, and
//     a list nests one level per two columns of indentation (`- a` under `  - a` under …: 7.8 MB
//     took 26 s and 700 MB). The scan keeps the content columns of the open list items (open while
//     lines are indented to them, and through lazy continuation lines); a line inside more than
//     maxQuoteDepth containers is blanked, and at most depthBudget line × depth steps are allowed in
//     one body.
//   - Blank lines in open containers: goldmark keeps 24 bytes for every line and every container
//     open over it, until they all close (one list item and 1 MB of empty lines: 270 MB; 100 nested
//     on one line and 200 KB of them: 4.7 GB). Empty lines cannot be blanked, so past blankBudget
//     blank line × container steps in one body, the containers are: every line from the one that
//     opened the outermost.
//   - Link destinations: after each `](` goldmark scans for the destination's end (a space, an
//     unbalanced `)`, or `>` after `<`). The scan lengths of a line are added up; a line over
//     1 Mi + 16 × its length steps is blanked (`[a](` repeated without a space: 200 KB took 27 s;
//     a line of real links costs about its own length), and at most linkBudget steps are allowed
//     in one body.
//   - Link labels across lines: for each `]` goldmark copies the label out of the paragraph by
//     walking back over its lines, so a paragraph costs about its `]` count × its line count
//     (2,000 lines of 250 `[a](` each: 5 s; a paragraph of `[a]: <` lines, which are not
//     definitions: 1 MB took 12 s). A paragraph over maxParagraphLabelCost is blanked, and at most
//     labelBudget is allowed in one body. Only the definitions opening a paragraph (which goldmark
//     takes out of it before reading its text) are left out of the count.
//   - Link reference definitions: goldmark takes each one out of its paragraph by copying the
//     paragraph's remaining lines, definitions × lines (140,000 valid `[a]: b` lines: 28 s). A
//     paragraph over maxParagraphDefCost is blanked, at most defBudget in one body.
//   - Nested brackets: for each `]` goldmark walks everything parsed since the `[` it closes (is
//     there a link inside?), so `[` × k then `]` × k costs k² (1 MB: 26 s; `![` … `](b)` nested:
//     28 s and 4.7 GB for 8 MB). The scan pairs brackets with a stack and adds up the distances; a
//     paragraph over 1 Mi + 16 × its length is blanked, at most bracketBudget in one body.
//   - Unclosed brackets: each `[` goldmark cannot close stays a node of its own, about 400 bytes
//     (8 MB of `[`: 3.3 GB). A paragraph leaving more than maxOpenBrackets unclosed is blanked,
//     and at most openBracketBudget are allowed in one body.
//   - Emphasis: delimiter runs (`*`, `_`) of one paragraph are matched pairwise, d² for d runs in
//     the worst case (`*a_` repeated: 150 KB took 26 s). A paragraph with more than
//     maxParagraphDelims runs is blanked, and at most emphasisBudget (Σ d²) is allowed in one body.
//
// A paragraph, for these counts, runs from a line that certainly opens a block to the next blank
// line or line that certainly opens one (opensBlock): where goldmark might continue a paragraph
// (lazy continuation lines, lines of a block quote, an indented line that may or may not be a
// nested item) the scan does too, so its counts are never below goldmark's.
//
// The budgets keep one body's parse under a few seconds of CPU, whatever its shape.
const (
	maxQuoteDepth         = 100
	depthBudget           = 20_000_000
	blankBudget           = 500_000
	maxParagraphDelims    = 5000
	linkBudget            = 1 << 30
	emphasisBudget        = 500_000_000
	maxParagraphLabelCost = 50_000_000
	labelBudget           = 400_000_000
	maxParagraphDefCost   = 500_000_000
	defBudget             = 1_000_000_000
	bracketBudget         = 100_000_000
	maxOpenBrackets       = 20_000
	// maxTrackedOpen bounds the list of a paragraph's open brackets: past it, a `]` is counted at
	// the distance to the last one kept, more than its own. So many brackets open at once are
	// refused either way (unclosed, or nested: 2^16 deep costs far past the paragraph's budget),
	// and a body of `[` allocates a list of at most 256 KiB, not five times its length.
	maxTrackedOpen    = 1 << 16
	openBracketBudget = 200_000
)

// tamed is one blanked stretch: its first byte and why.
type tamed struct {
	off    int
	reason string
	lines  int // for a run of lines blanked for their depth: how many
}

// paragraph is what tameBody counts of the paragraph being read.
type paragraph struct {
	start       int   // its first byte, -1 when no paragraph is open
	delims      int   // emphasis delimiter runs
	labels      int64 // `]` on its lines after the leading definitions
	lines       int64 // lines
	linesAfter  int64 // lines after the leading definitions
	defs        int64 // leading one-line definitions
	inDefs      bool  // every line so far is a one-line definition
	open        []int32
	openExtra   int64 // opened past maxTrackedOpen, not in open
	bracketCost int64 // Σ distance from each `]` to the `[` it closes (at least)
	indent      int   // the columns of its first line's indentation (inside its quotes)
	itemContent int   // the content column of the item its first line opens, -1 when none
}

// fullTameScan, set by tests, makes tameBody count every paragraph and line even when
// paragraphsBounded says none can reach a limit: the reference the shortcut must agree with.
var fullTameScan bool

// paragraphsBounded reports whether body is too small, or holds too few of the bytes the counts
// are made of, for any of its paragraphs or lines to reach a limit of tameBody's paragraph counts
// (emphasis runs, link labels, definitions, nested and unclosed brackets) or of its link
// destinations, or its budgets of them, whatever its shape. Each count is bounded by the body's
// totals (bytes.Count, vectorised):
//
//   - a paragraph's delimiter runs by the body's `*` and `_` (each run is at least one), and the
//     body's Σ d² by their total squared;
//   - a paragraph's labels × lines by the body's `]` × its lines, and so is their sum over the
//     paragraphs; definitions × lines by the lines squared;
//   - the distance from a `]` to the `[` it closes by the body's length, so a paragraph's (and the
//     body's) bracket cost by `]` × length; the unclosed brackets by the body's `[`;
//   - the destination scan after a `](` stops at the line's end (linkScanBound), so a line's (and
//     the body's) link cost by `]` × length.
//
// Every limit the bounds are compared with is at most its budget (TestParagraphsBoundedLimits).
func paragraphsBounded(body []byte) bool {
	n := int64(len(body))
	closes := int64(bytes.Count(body, []byte{']'}))
	if closes*n > 1<<20 {
		return false
	}
	lines := int64(bytes.Count(body, []byte{'\n'})) + 1
	if closes*lines > maxParagraphLabelCost || lines*lines > maxParagraphDefCost {
		return false
	}
	if d := int64(bytes.Count(body, []byte{'*'}) + bytes.Count(body, []byte{'_'})); d > maxParagraphDelims || d*d > emphasisBudget {
		return false
	}
	return bytes.Count(body, []byte{'['}) <= maxOpenBrackets
}

// tameBody returns src with the hostile stretches of the body (from bodyOffset) blanked, in a copy
// when there are any (src itself is never changed), and what was blanked.
func tameBody(src []byte, bodyOffset int) ([]byte, []tamed) {
	var out []byte
	var found []tamed
	blank := func(from, to int, reason string) {
		if out == nil {
			out = append([]byte(nil), src...)
		}
		for i := from; i < to; i++ {
			if out[i] != '\n' && out[i] != '\r' {
				out[i] = ' '
			}
		}
		found = append(found, tamed{off: from, reason: reason})
	}
	// linkUsed is the exact cost of the link destinations counted; linkBound adds to it an upper
	// bound of the cost of the lines in pending, not yet counted.
	linkBound := int64(0)
	var pendingSpace [64]int // most files have fewer lines of links
	pending := pendingSpace[:0]
	linkUsed, emphUsed, labelUsed, defUsed, bracketUsed, openUsed, depthUsed := int64(0), int64(0), int64(0), int64(0), int64(0), int64(0), int64(0)
	p := paragraph{start: -1}
	endParagraph := func(end int) {
		if p.start >= 0 {
			d := int64(p.delims)
			labels := p.labels * p.linesAfter
			defs := p.defs * p.lines
			open := int64(len(p.open)) + p.openExtra
			switch {
			case labels > maxParagraphLabelCost:
				blank(p.start, end, fmt.Sprintf("a paragraph with %d link labels over %d lines is not parsed", p.labels, p.linesAfter))
			case labelUsed+labels > labelBudget:
				blank(p.start, end, "a paragraph past the file's budget of link labels is not parsed")
			case defs > maxParagraphDefCost:
				blank(p.start, end, fmt.Sprintf("a paragraph of %d link reference definitions over %d lines is not parsed", p.defs, p.lines))
			case defUsed+defs > defBudget:
				blank(p.start, end, "a paragraph past the file's budget of link reference definitions is not parsed")
			case p.bracketCost > 1<<20+16*int64(end-p.start):
				blank(p.start, end, "a paragraph of deeply nested brackets is not parsed")
			case bracketUsed+p.bracketCost > bracketBudget:
				blank(p.start, end, "a paragraph past the file's budget of nested brackets is not parsed")
			case open > maxOpenBrackets:
				blank(p.start, end, fmt.Sprintf("a paragraph with %d unclosed brackets (more than %d) is not parsed", open, maxOpenBrackets))
			case openUsed+open > openBracketBudget:
				blank(p.start, end, "a paragraph past the file's budget of unclosed brackets is not parsed")
			case p.delims > maxParagraphDelims:
				blank(p.start, end, fmt.Sprintf("a paragraph with %d emphasis markers (more than %d) is not parsed", p.delims, maxParagraphDelims))
			case emphUsed+d*d > emphasisBudget:
				blank(p.start, end, "a paragraph past the file's budget of emphasis markers is not parsed")
			default:
				emphUsed += d * d
				labelUsed += labels
				defUsed += defs
				bracketUsed += p.bracketCost
				openUsed += open
			}
		}
		p = paragraph{start: -1, open: p.open[:0]}
	}
	// The open list items and footnote definitions: their content columns, innermost last, and
	// where the outermost was opened.
	var itemSpace [32]int32 // most bodies nest fewer
	items := itemSpace[:0]
	region := -1
	blankUsed := int64(0)
	prevQuote := false // the line before was a block quote line
	prevDepth := 0     // the containers the line before was in
	deepRun := -1      // the index in found of the run of lines being blanked for their depth
	// blankInContainers counts the blank line at off in the containers open over it: goldmark
	// keeps a record of every line for every container open over it, blank lines too (a list item
	// and 1 MB of empty lines: 270 MB). Past the budget, the containers are never opened:
	// everything from the line that opened the outermost is blanked, so that none is open over the
	// lines that follow.
	blankInContainers := func(off int) {
		if len(items) == 0 {
			return
		}
		blankUsed += int64(len(items))
		if blankUsed > blankBudget {
			blank(region, off, "a list followed by too many blank lines is not parsed")
			items, region, deepRun = items[:0], -1, -1
		}
	}
	// When the whole body's counts show that no paragraph and no line can reach a limit of the
	// paragraph counts or the link destinations, they are not counted.
	bounded := !fullTameScan && bodyOffset <= len(src) && paragraphsBounded(src[bodyOffset:])
	if !bounded && bodyOffset <= len(src) {
		// The open brackets' list is made once, at most maxTrackedOpen long, rather than grown
		// by a quarter at a time (five times its size allocated for a body of brackets).
		if n := bytes.Count(src[bodyOffset:], []byte{'['}); n > 256 {
			p.open = make([]int32, 0, min(n, maxTrackedOpen))
		}
	}
	for off := bodyOffset; off < len(src); {
		line, next := nextLine(src, off)
		if isBlankLine(line) {
			endParagraph(off)
			prevQuote, prevDepth = false, 0
			blankInContainers(off)
			off = next
			continue
		}
		quotes, rest, col := quotePrefix(line)
		w, t := indentOf(rest)
		restBlank := isBlankLine(t)
		opens := quotes > 0 && !prevQuote || restBlank || p.start < 0 || p.opensBlock(t, w)
		keep := len(items) // the items still open on this line, unless it is blanked
		if opens {
			// Not a continuation of a paragraph: the items it is not indented to are closed.
			for keep > 0 && int(items[keep-1]) > col+w {
				keep--
			}
		}
		own := quoteDepth(line)
		depth := keep + own
		if !opens {
			depth = max(depth, prevDepth) // a lazy line stays in every container it continues
		}
		reason := ""
		switch {
		case own > maxQuoteDepth:
			reason = fmt.Sprintf("a line opening %d block quotes or list items (more than %d) is not parsed", own, maxQuoteDepth)
		case depth > maxQuoteDepth:
			reason = "deep"
		case depthUsed+int64(depth*depth) > depthBudget:
			reason = "budget"
		}
		if reason != "" {
			endParagraph(off) // the blanked line is a blank line to goldmark
			if (reason == "deep" || reason == "budget") && deepRun >= 0 && found[deepRun].reason == reason {
				if out == nil {
					out = append([]byte(nil), src...)
				}
				for i := off; i < off+len(line); i++ {
					if out[i] != '\r' {
						out[i] = ' '
					}
				}
				found[deepRun].lines++
			} else {
				blank(off, off+len(line), reason)
				deepRun = -1
				if reason == "deep" || reason == "budget" {
					deepRun = len(found) - 1
					found[deepRun].lines = 1
				}
			}
			prevQuote, prevDepth = false, 0
			blankInContainers(off)
			off = next
			continue
		}
		deepRun = -1
		items = items[:keep]
		depthUsed += int64(depth * depth)
		if len(items) == 0 {
			region = off
		}
		if opens {
			items = pushItems(items, line)
		} else if n := len(items); n > 0 && int(items[n-1]) <= col+w && col+w < int(items[n-1])+4 {
			// A line the scan reads as a continuation may be, to goldmark, an item nested in the
			// innermost one open: count it as one.
			items = pushItems(items, line)
		}
		prevQuote, prevDepth = quotes > 0, depth
		if restBlank {
			endParagraph(off) // a blank line inside block quotes
			off = next
			continue
		}
		if opens && p.start >= 0 {
			endParagraph(off)
		}
		if p.start < 0 {
			p.start, p.inDefs, p.indent, p.itemContent = off, true, w, itemContentColumn(t, w)
		}
		if bounded {
			off = next
			continue
		}
		runs, labels, hasDest := lineCounts(line)
		var cost int64
		if hasDest {
			if bound := linkScanBound(line); !exactLinkCosts && bound <= 1<<20 && linkBound+bound <= linkBudget {
				// Neither limit below can be reached whatever the line's exact cost (at most
				// bound): it is counted when one may be (linkScanCost is a byte loop over the line).
				pending = append(pending, off)
				linkBound += bound
				hasDest = false
			} else {
				for _, o := range pending { // src is never changed: the lines are as they were
					l, _ := nextLine(src, o)
					linkUsed += linkScanCost(l)
				}
				pending, linkBound = pending[:0], linkUsed
				cost = linkScanCost(line)
			}
		}
		switch {
		case cost > 1<<20+16*int64(len(line)):
			endParagraph(off)
			blank(off, off+len(line), "a line with too many unfinished link destinations is not parsed")
			off = next
			continue
		case linkUsed+cost > linkBudget:
			endParagraph(off)
			blank(off, off+len(line), "a line past the file's budget of link destinations is not parsed")
			off = next
			continue
		}
		linkUsed += cost
		if hasDest {
			linkBound += cost
		}
		p.delims += runs
		p.lines++
		if p.inDefs && oneLineDefinition(t) {
			p.defs++
		} else {
			p.inDefs = false
			p.labels += int64(labels)
			p.linesAfter++
		}
		if labels > 0 || bytes.IndexByte(line, '[') >= 0 {
			p.brackets(line, off)
		}
		off = next
	}
	endParagraph(len(src))
	for i := range found {
		switch f := &found[i]; f.reason {
		case "deep":
			f.reason = fmt.Sprintf("%d lines inside more than %d nested block quotes and list items are not parsed", f.lines, maxQuoteDepth)
			if f.lines == 1 {
				f.reason = fmt.Sprintf("a line inside more than %d nested block quotes and list items is not parsed", maxQuoteDepth)
			}
		case "budget":
			f.reason = fmt.Sprintf("%d lines past the file's budget of nested block quotes and list items are not parsed", f.lines)
			if f.lines == 1 {
				f.reason = "a line past the file's budget of nested block quotes and list items is not parsed"
			}
		}
	}
	if out == nil {
		return src, nil
	}
	return out, found
}

// brackets pairs the brackets of the paragraph's line at off: each `]` closes the latest `[` still
// open (as goldmark's link parser does), at the cost of the distance between them.
func (p *paragraph) brackets(line []byte, off int) {
	for i := 0; ; {
		k := bytes.IndexAny(line[i:], "[]")
		if k < 0 {
			return
		}
		i += k
		if line[i] == '[' {
			if len(p.open) < maxTrackedOpen {
				p.open = append(p.open, int32(off+i-p.start))
			} else {
				p.openExtra++
			}
		} else if p.openExtra > 0 {
			// Its `[` is later than the last one kept: the distance to that one is more.
			p.openExtra--
			p.bracketCost += int64(off + i - p.start - int(p.open[len(p.open)-1]))
		} else if n := len(p.open); n > 0 {
			p.bracketCost += int64(off + i - p.start - int(p.open[n-1]))
			p.open = p.open[:n-1]
		}
		i++
	}
}

// quotePrefix returns the number of block quote markers opening line, the rest of the line after
// them (and the one space each may take), and the column where that rest starts.
func quotePrefix(line []byte) (quotes int, rest []byte, col int) {
	i := 0
	for {
		j, c := i, col
		for j < len(line) && (line[j] == ' ' || line[j] == '\t') && j-i < 4 {
			c = nextCol(c, line[j])
			j++
		}
		if j >= len(line) || line[j] != '>' {
			return quotes, line[i:], col
		}
		quotes++
		j++
		c++
		if j < len(line) && line[j] == ' ' {
			j++
			c++
		}
		i, col = j, c
	}
}

func nextCol(c int, b byte) int {
	if b == '\t' {
		return c + 4 - c%4
	}
	return c + 1
}

// indentOf returns the columns of a line's leading spaces and tabs, and the line after them.
func indentOf(line []byte) (int, []byte) {
	w, i := 0, 0
	for i < len(line) && (line[i] == ' ' || line[i] == '\t') {
		w = nextCol(w, line[i])
		i++
	}
	return w, line[i:]
}

// listMarker returns the width of the list item marker t starts with (`-`, `*`, `+`, or up to nine
// digits and `.` or `)`), followed by a space, a tab or the end of the line, 0 when none; number is
// the ordered item's number (-1 for bullets).
func listMarker(t []byte) (width int, number int) {
	if len(t) == 0 {
		return 0, -1
	}
	m, number := 0, -1
	switch c := t[0]; {
	case c == '-' || c == '*' || c == '+':
		m = 1
	case c >= '0' && c <= '9':
		number = 0
		for m < len(t) && m < 9 && t[m] >= '0' && t[m] <= '9' {
			number = number*10 + int(t[m]-'0')
			m++
		}
		if m >= len(t) || t[m] != '.' && t[m] != ')' {
			return 0, -1
		}
		m++
	default:
		return 0, -1
	}
	if m < len(t) && t[m] != ' ' && t[m] != '\t' {
		return 0, -1
	}
	return m, number
}

// emptyItem reports whether the list item marker of t, m bytes wide, is followed by nothing: an
// empty item, which nests like any other (its content column is one past the marker) but cannot
// interrupt a paragraph.
func emptyItem(t []byte, m int) bool { return isBlankLine(t[m:]) }

// itemContentColumn returns the content column of the list item t (indented w) opens, -1 when it opens
// none: the marker's width and the spaces after it, or one space when there are more than four
// (the rest is indented code).
func itemContentColumn(t []byte, w int) int {
	m, _ := listMarker(t)
	if m == 0 {
		return -1
	}
	return w + m + contentSpaces(t[m:])
}

// contentSpaces returns the columns between a list marker and its item's content, rest being the
// line after the marker: the spaces, or one when there are more than four (the rest is indented
// code) or none (an empty item).
func contentSpaces(rest []byte) int {
	sp, r := indentOf(rest)
	if sp > 4 || sp == 0 || len(r) == 0 {
		return 1
	}
	return sp
}

// opensBlock reports whether the line t (indented w columns inside its block quotes) certainly
// opens a block of its own in goldmark, rather than continuing the paragraph p: a list item at a
// position where it cannot be a continuation (three columns or less, the paragraph's own
// indentation, or nested in the item the paragraph opened; an ordered item interrupts only from
// 1), an ATX heading, a fence, a thematic break, a footnote definition or an HTML block of a
// block-level tag. When unsure it says no,
// so that the scan's paragraphs are never smaller than goldmark's.
func (p *paragraph) opensBlock(t []byte, w int) bool {
	if m, number := listMarker(t); m > 0 && !emptyItem(t, m) {
		sibling := w == p.indent && p.itemContent >= 0
		nested := p.itemContent >= 0 && w >= p.itemContent && w < p.itemContent+4
		if number >= 0 && number != 1 {
			return sibling
		}
		return w <= 3 || w == p.indent || sibling || nested
	}
	if w > 3 || len(t) == 0 {
		return false
	}
	switch t[0] {
	case '#':
		n := 0
		for n < len(t) && t[n] == '#' {
			n++
		}
		return n <= 6 && (n == len(t) || t[n] == ' ' || t[n] == '\t')
	case '`', '~':
		return bytes.HasPrefix(t, []byte("```")) || bytes.HasPrefix(t, []byte("~~~"))
	case '-', '*', '_':
		return thematicBreak(t)
	case '[':
		return footnoteDefinition(t) > 0
	case '<':
		return fastmd.HTMLBlock6(t) // `<div>`, `</details>`: goldmark ends the paragraph there
	}
	return false
}

// footnoteDefinition returns the length of the `[^label]:` t starts with, 0 when none.
func footnoteDefinition(t []byte) int {
	if len(t) < 5 || t[0] != '[' || t[1] != '^' {
		return 0
	}
	for i := 2; i < len(t) && i < 2+footnoteLabelLimit; i++ {
		switch t[i] {
		case ']':
			if i > 2 && i+1 < len(t) && t[i+1] == ':' {
				return i + 2
			}
			return 0
		case ' ', '\t', '[':
			return 0
		}
	}
	return 0
}

// pushItems adds the list items and footnote definitions line opens to items, by content column.
func pushItems(items []int32, line []byte) []int32 {
	col := 0
	for i := 0; i < len(line); {
		switch c := line[i]; {
		case c == ' ' || c == '\t':
			col = nextCol(col, c)
			i++
		case c == '>':
			col++
			i++
		default:
			if m, _ := listMarker(line[i:]); m > 0 {
				col += m
				i += m
				items = append(items, int32(col+contentSpaces(line[i:])))
				continue
			}
			if m := footnoteDefinition(line[i:]); m > 0 {
				// goldmark continues a footnote definition on lines indented four columns.
				items = append(items, int32(col-col%4+4))
				col += m
				i += m
				continue
			}
			return items
		}
	}
	return items
}

// oneLineDefinition reports whether t is a link reference definition on one line that goldmark
// takes as one: `[label]: destination`, optionally a title in quotes or parentheses, nothing
// after. It is stricter than goldmark (no escapes, no brackets in the label, no empty `<>`): a
// definition it does not recognise is counted as a line of labels, never the other way round.
func oneLineDefinition(t []byte) bool {
	if len(t) < 4 || t[0] != '[' {
		return false
	}
	end := 1
	for end < len(t) && t[end] != ']' {
		if c := t[end]; c == '[' || c == '\\' || end > 999 {
			return false
		}
		end++
	}
	if end == 1 || end+1 >= len(t) || t[end+1] != ':' || isBlankLine(t[1:end]) {
		return false
	}
	_, r := indentOf(t[end+2:])
	if len(r) == 0 {
		return false // the destination would be on the next line
	}
	i := 0
	if r[0] == '<' {
		i = 1
		for i < len(r) && r[i] != '>' {
			if r[i] == '<' || r[i] == '\\' {
				return false
			}
			i++
		}
		if i == 1 || i >= len(r) {
			return false
		}
		i++
	} else {
		depth := 0
		for i < len(r) && r[i] > ' ' {
			switch r[i] {
			case '\\', '<':
				return false
			case '(':
				depth++
			case ')':
				depth--
			}
			if depth < 0 || depth > 16 {
				return false
			}
			i++
		}
		if depth != 0 {
			return false
		}
	}
	sp, r := indentOf(r[i:])
	if isBlankLine(r) {
		return true
	}
	if sp == 0 {
		return false
	}
	closer := map[byte]byte{'"': '"', '\'': '\'', '(': ')'}[r[0]]
	if closer == 0 {
		return false
	}
	k := bytes.IndexByte(r[1:], closer)
	if k < 0 || bytes.IndexByte(r[1:1+k], '\\') >= 0 || r[0] == '(' && bytes.IndexByte(r[1:1+k], '(') >= 0 {
		return false
	}
	return isBlankLine(r[k+2:])
}

func isAlnum(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c >= 0x80
}

func isBlankLine(line []byte) bool {
	for _, c := range line {
		if c != ' ' && c != '\t' && c != '\r' {
			return false
		}
	}
	return true
}

// quoteDepth counts the block quote markers (`>`), list markers (`-`, `*`, `+` or a number with
// `.` or `)`, each followed by a space) and footnote definitions (`[^label]:`) opening a line.
func quoteDepth(line []byte) int {
	n := 0
	space := func(i int) bool { return i >= len(line) || line[i] == ' ' || line[i] == '\t' }
	for i := 0; i < len(line); {
		switch c := line[i]; {
		case c == ' ' || c == '\t':
			i++
		case c == '>':
			n++
			i++
		case (c == '-' || c == '*' || c == '+') && space(i+1):
			n++
			i++
		case c >= '0' && c <= '9':
			j := i
			for j < len(line) && j-i < 9 && line[j] >= '0' && line[j] <= '9' {
				j++
			}
			if j < len(line) && (line[j] == '.' || line[j] == ')') && space(j+1) {
				n++
				i = j + 1
				continue
			}
			return n
		case c == '[':
			m := footnoteDefinition(line[i:])
			if m == 0 {
				return n
			}
			n++
			i += m
		default:
			return n
		}
	}
	return n
}

// lineCounts reads a line: its runs of `*` and of `_`, its `]` that are not footnote references
// (okf's own parser reads those, not goldmark's label copy), and whether it has a `](`. Each byte
// of interest is found with bytes.IndexByte / bytes.Count (vectorised), so the bytes between them,
// nearly all of a line of prose, are never looked at one by one; lineCountsSlow in the tests is the
// byte loop this must agree with.
func lineCounts(line []byte) (runs, labels int, hasDest bool) {
	for _, c := range [2]byte{'*', '_'} {
		for i := 0; ; {
			k := bytes.IndexByte(line[i:], c)
			if k < 0 {
				break
			}
			i += k // the first byte of a run
			j := i + 1
			for j < len(line) && line[j] == c {
				j++
			}
			// An `_` run between letters or digits (snake_case) never opens or closes.
			if c == '*' || !(i > 0 && isAlnum(line[i-1]) && j < len(line) && isAlnum(line[j])) {
				runs++
			}
			i = j
			if i >= len(line) {
				break
			}
		}
	}
	labels = bytes.Count(line, []byte{']'})
	if labels > 0 {
		hasDest = bytes.Contains(line, []byte("]("))
		labels -= bytes.Count(line, []byte("[^")) // "[^" cannot overlap itself
	}
	return runs, max(labels, 0), hasDest
}

// exactLinkCosts, set by tests, makes tameBody count every line's exact cost at once, as it did
// before linkScanBound: the reference its decisions must agree with.
var exactLinkCosts bool

// linkScanBound is an upper bound of linkScanCost(line), found without a loop over every byte: a
// scan from each `](` goes at most to the end of the line.
func linkScanBound(line []byte) int64 {
	var total int64
	for i := 0; ; {
		k := bytes.Index(line[i:], []byte("]("))
		if k < 0 {
			return total
		}
		i += k
		total += int64(max(len(line)-(i+2), 0))
		i += 2
	}
}

// linkScanCost adds up, for each `](` of the line, how far goldmark's destination scan goes: past
// the spaces after the `(`, then to the first space or tab, or the `)` that closes more than it
// opened, or for `<` the next `>`; the end of the line otherwise. Linear: positions are visited from
// the end, with a stack for the next unbalanced `)`, and the first position that is not a space
// after each one carried along.
func linkScanCost(line []byte) int64 {
	n := len(line)
	var total int64
	nextSpace, nextGT := n, n
	// Computed right to left with a stack of the positions of unmatched `)`.
	var closers []int
	parenStop := n // for a ( at i+1: the ) that matches it, where a scan from i+2 stops
	// start is where a destination scan from a position begins, the first that is not a space at or
	// after it, with nextSpace and nextGT there; start1 for position i+1, start2 for i+2.
	type start struct{ at, space, gt int }
	none := start{at: -1}
	start1, start2 := none, none
	for i := n - 1; i >= 0; i-- {
		c := line[i]
		switch c {
		case ' ', '\t':
			nextSpace = i
		case '>':
			nextGT = i
		case ')':
			closers = append(closers, i)
		case '(':
			parenStop = n
			if len(closers) > 0 {
				parenStop = closers[len(closers)-1]
				closers = closers[:len(closers)-1] // matched by this (
			}
		}
		if c == ']' && i+1 < n && line[i+1] == '(' && start2.at >= 0 {
			j := start2.at
			if line[j] == '<' {
				total += int64(min(start2.gt, n) - j)
			} else {
				// The scan from j stops at the first space, or at the first ) unmatched from j on:
				// the one matching the ( at i+1 (only spaces are between them).
				total += int64(max(min(start2.space, parenStop)-j, 0))
			}
		}
		start2 = start1
		if c != ' ' && c != '\t' {
			start1 = start{at: i, space: nextSpace, gt: nextGT}
		}
	}
	return total
}
