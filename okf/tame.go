package okf

import (
	"bytes"
	"fmt"
)

// The Markdown parser (goldmark) spends time superlinear in some shapes of text that no real body
// has. tameBody finds them before it runs, with a linear scan, and blanks them (every byte but line
// ends becomes a space, so every other offset, line and column stays right); each blanked stretch is
// a finding, and the rest of the body is parsed as usual. The shapes and their bounds:
//
//   - Container depth: a line opening more than maxQuoteDepth block quotes and list items
//     (goldmark: depth² per line; 100,000 `>` took 7 s, 50,000 `- ` 11 s).
//   - Link destinations: after each `](` goldmark scans for the destination's end (a space, an
//     unbalanced `)`, or `>` after `<`). The scan lengths of a line are added up; a line over
//     1 Mi + 16 × its length steps is blanked (`[a](` repeated without a space: 200 KB took 27 s;
//     a line of real links costs about its own length), and at most linkBudget steps are allowed
//     in one body.
//   - Link labels across lines: for each `]` goldmark copies the label out of the paragraph by
//     walking back over its lines, so a paragraph costs about its `]` count × its line count
//     (2,000 lines of 250 `[a](` each: 5 s). A paragraph over maxParagraphLabelCost is blanked,
//     and at most labelBudget is allowed in one body.
//   - Emphasis: delimiter runs (`*`, `_`) of one paragraph are matched pairwise, d² for d runs in
//     the worst case (`*a_` repeated: 150 KB took 26 s). A paragraph with more than
//     maxParagraphDelims runs is blanked, and at most emphasisBudget (Σ d²) is allowed in one body.
//
// The budgets keep one body's parse under a few seconds of CPU, whatever its shape.
const (
	maxQuoteDepth         = 100
	maxParagraphDelims    = 5000
	linkBudget            = 1 << 30
	emphasisBudget        = 500_000_000
	maxParagraphLabelCost = 200_000_000
	labelBudget           = 1_000_000_000
)

// tamed is one blanked stretch: its first byte and why.
type tamed struct {
	off    int
	reason string
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
	linkUsed, emphUsed, labelUsed := int64(0), int64(0), int64(0)
	paraStart, paraDelims, paraLabels, paraLines := -1, 0, int64(0), int64(0)
	endParagraph := func(end int) {
		if paraStart >= 0 {
			d := int64(paraDelims)
			labels := paraLabels * paraLines
			switch {
			case labels > maxParagraphLabelCost:
				blank(paraStart, end, fmt.Sprintf("a paragraph with %d link labels over %d lines is not parsed", paraLabels, paraLines))
			case labelUsed+labels > labelBudget:
				blank(paraStart, end, "a paragraph past the file's budget of link labels is not parsed")
			case paraDelims > maxParagraphDelims:
				blank(paraStart, end, fmt.Sprintf("a paragraph with %d emphasis markers (more than %d) is not parsed", paraDelims, maxParagraphDelims))
			case emphUsed+d*d > emphasisBudget:
				blank(paraStart, end, "a paragraph past the file's budget of emphasis markers is not parsed")
			default:
				emphUsed += d * d
				labelUsed += labels
			}
		}
		paraStart, paraDelims, paraLabels, paraLines = -1, 0, 0, 0
	}
	for off := bodyOffset; off < len(src); {
		line, next := nextLine(src, off)
		if isBlankLine(line) {
			endParagraph(off)
			off = next
			continue
		}
		if paraStart >= 0 && startsBlock(line) {
			endParagraph(off) // a list item, heading, quote or footnote: a paragraph of its own
		}
		if paraStart < 0 {
			paraStart = off
		}
		if depth := quoteDepth(line); depth > maxQuoteDepth {
			blank(off, off+len(line), fmt.Sprintf("a line opening %d block quotes or list items (more than %d) is not parsed", depth, maxQuoteDepth))
			off = next
			continue
		}
		runs, labels, hasDest := lineCounts(line)
		var cost int64
		if hasDest {
			cost = linkScanCost(line)
		}
		switch {
		case cost > 1<<20+16*int64(len(line)):
			blank(off, off+len(line), "a line with too many unfinished link destinations is not parsed")
			off = next
			continue
		case linkUsed+cost > linkBudget:
			blank(off, off+len(line), "a line past the file's budget of link destinations is not parsed")
			off = next
			continue
		}
		linkUsed += cost
		paraDelims += runs
		if !isDefinition(bytes.TrimLeft(line, " \t")) {
			paraLabels += int64(labels)
		}
		paraLines++
		off = next
	}
	endParagraph(len(src))
	if out == nil {
		return src, nil
	}
	return out, found
}

// startsBlock reports whether a line opens a block of its own in Markdown (so goldmark's inline
// costs start again there): a list item, heading, block quote, fence or footnote definition.
func startsBlock(line []byte) bool {
	t := bytes.TrimLeft(line, " \t")
	if len(t) == 0 {
		return false
	}
	spaceAt := func(i int) bool { return i >= len(t) || t[i] == ' ' || t[i] == '\t' || t[i] == '\r' }
	switch c := t[0]; {
	case c == '-' || c == '*' || c == '+':
		return spaceAt(1)
	case c == '#' || c == '>':
		return true
	case c >= '0' && c <= '9':
		i := 0
		for i < len(t) && i < 9 && t[i] >= '0' && t[i] <= '9' {
			i++
		}
		return i < len(t) && (t[i] == '.' || t[i] == ')') && spaceAt(i+1)
	case bytes.HasPrefix(t, []byte("```")) || bytes.HasPrefix(t, []byte("~~~")):
		return true
	case c == '[':
		return isDefinition(t)
	}
	return false
}

// isDefinition reports whether a line (spaces trimmed) defines a link reference or a footnote,
// `[label]: …`: goldmark reads those without copying labels back out of the paragraph.
func isDefinition(t []byte) bool {
	if len(t) == 0 || t[0] != '[' {
		return false
	}
	end := bytes.IndexByte(t, ']')
	return end > 1 && end+1 < len(t) && t[end+1] == ':'
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

// quoteDepth counts the block quote markers (`>`) and list markers (`-`, `*`, `+` or a number with
// `.` or `)`, each followed by a space) opening a line.
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

// linkScanCost adds up, for each `](` of the line, how far goldmark's destination scan goes: to the
// first space or tab, or the `)` that closes more than it opened, or for `<` the next `>`; the end
// of the line otherwise. Linear: positions are visited from the end, with a stack for the next
// unbalanced `)`.
func linkScanCost(line []byte) int64 {
	n := len(line)
	var total int64
	nextSpace, nextGT := n, n
	// unbalanced[k]: the first position ≥ k where the balance of ( and ) from k drops below zero.
	// Computed right to left with a stack of the positions of unmatched `)`.
	var closers []int
	parenStop := n // for a ( at i+1: the ) that matches it, where a scan from i+2 stops
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
		if c == ']' && i+1 < n && line[i+1] == '(' {
			j := i + 2
			if j < n && line[j] == '<' {
				total += int64(min(nextGT, n) - j)
				continue
			}
			// The scan from j stops at the first space, or at the first ) unmatched from j on:
			// the one matching the ( at i+1.
			total += int64(max(min(nextSpace, parenStop)-j, 0))
		}
	}
	return total
}
