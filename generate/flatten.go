package generate

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Flatten's passes. Each is one left-to-right scan that does what one regular expression of
// Flatten's first version did with ReplaceAllString (leftmost-first matching, lazy quantifiers
// shortest first, the scan going on after each match), so the output is the same bytes; the
// regular expressions themselves are kept in flatten_ref_test.go, which the fuzz target compares
// against. Every search for a closer goes through a nextIndex, which remembers its last answer:
// 10,000 openers that never close read the rest of the text once, not 10,000 times.

// nextIndex answers "the first position at or after p where match holds" for positions p that
// (mostly) increase, remembering its last answer so that a run of queries reads each byte about
// once.
type nextIndex struct {
	s     string
	match func(s string, i int) bool // nil: s[i] == c
	c     byte
	from  int // the last query: the first position at or after from that matches is at
	at    int // -1: none
	valid bool
}

func (n *nextIndex) find(p int) int {
	if n.valid && p >= n.from && (n.at < 0 || p <= n.at) {
		return n.at
	}
	n.from, n.valid, n.at = p, true, -1
	if p >= len(n.s) {
		return -1
	}
	if n.match == nil {
		if j := strings.IndexByte(n.s[p:], n.c); j >= 0 {
			n.at = p + j
		}
	} else {
		for i := p; i < len(n.s); i++ {
			if n.match(n.s, i) {
				n.at = i
				break
			}
		}
	}
	if countReads != nil {
		if n.at < 0 {
			*countReads += len(n.s) - p
		} else {
			*countReads += n.at - p + 1
		}
	}
	return n.at
}

// countReads, when set (by a test), adds up the bytes nextIndex reads.
var countReads *int

// isPerlSpace is a byte of Go's \s: tab, newline, form feed, carriage return, space.
func isPerlSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\f' || c == '\r' }

// isASCIIPunct is a byte of [!-/:-@\[-`{-~].
func isASCIIPunct(c byte) bool {
	return c >= '!' && c <= '/' || c >= ':' && c <= '@' || c >= '[' && c <= '`' || c >= '{' && c <= '~'
}

func isASCIIWord(r rune) bool {
	return r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r == '_'
}

// runeWidth is the width of the rune at s[i] as a regular expression steps over it (an invalid
// byte is one).
func runeWidth(s string, i int) int {
	if s[i] < utf8.RuneSelf {
		return 1
	}
	_, w := utf8.DecodeRuneInString(s[i:])
	return w
}

// hideEscapes turns each backslash-escaped ASCII punctuation (\*) into a private-use rune, so
// that the passes below do not see it (\\([!-/:-@\[-`{-~])). A private-use rune of the text
// that revealEscapes would turn into something else (privateBase to privateMark) is kept as
// privateMark followed by itself.
func hideEscapes(s string) string {
	i := strings.IndexByte(s, '\\')
	if j := strings.IndexByte(s, privateLead); j >= 0 && (i < 0 || j < i) {
		i = j
	}
	if i < 0 {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 8)
	b.WriteString(s[:i])
	for i < len(s) {
		c := s[i]
		if c == '\\' && i+1 < len(s) && isASCIIPunct(s[i+1]) {
			b.WriteRune(rune(privateBase + int(s[i+1])))
			i += 2
			continue
		}
		if c == privateLead {
			if r, w := utf8.DecodeRuneInString(s[i:]); r >= privateBase && r <= privateMark {
				b.WriteRune(privateMark)
				b.WriteString(s[i : i+w])
				i += w
				continue
			}
		}
		b.WriteByte(c)
		i++
	}
	return b.String()
}

// privateMark comes before a private-use rune of the text that hideEscapes kept; privateLead is
// the first byte of every rune revealEscapes changes.
const (
	privateMark = privateBase + 128
	privateLead = 0xEE
)

// revealEscapes turns the private-use runes of hideEscapes back into their punctuation and the
// text's own private-use runes back into themselves (and, as strings.Map does, each invalid UTF-8
// byte into U+FFFD).
func revealEscapes(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); {
		r, w := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == privateMark && i+w < len(s):
			if q, qw := utf8.DecodeRuneInString(s[i+w:]); q >= privateBase && q <= privateMark {
				b.WriteString(s[i+w : i+w+qw])
				i += w + qw
				continue
			}
			b.WriteRune(r)
		case r >= privateBase && r < privateBase+128:
			b.WriteByte(byte(r - privateBase))
		default:
			b.WriteRune(r) // RuneError for an invalid byte
		}
		i += w
	}
	return b.String()
}

// bracketLinks removes or unwraps one kind of bracketed link:
//   - images, !\[([^\]]*)\]\([^)]*\) → "" (kind '!')
//   - inline links, \[([^\]]*)\]\([^)]*\) → the text (kind '(')
//   - reference links, \[([^\]^][^\]]*)\]\[[^\]]*\] → the text (kind '[')
func bracketLinks(s string, kind byte) string {
	open := "["
	if kind == '!' {
		open = "!["
	}
	i := strings.Index(s, open)
	if i < 0 {
		return s
	}
	opener, closer := byte('('), byte(')') // what opens and closes the destination or the label
	if kind == '[' {
		opener, closer = '[', ']'
	}
	textEnd := nextIndex{s: s, c: ']'}
	destEnd := nextIndex{s: s, c: closer}
	var b strings.Builder
	last := 0
	for ; i < len(s); i++ {
		if s[i] != '[' {
			continue
		}
		start, text := i, i+1
		if kind == '!' {
			if i == 0 || s[i-1] != '!' {
				continue
			}
			start = i - 1
		}
		if start < last {
			continue // the '!' ended the previous match
		}
		if kind == '[' && (text >= len(s) || s[text] == ']' || s[text] == '^') {
			continue
		}
		e := textEnd.find(text)
		if e < 0 {
			break // no ']' further on: nothing later can match either
		}
		if e+1 >= len(s) || s[e+1] != opener {
			continue
		}
		p := destEnd.find(e + 2)
		if p < 0 {
			continue
		}
		b.WriteString(s[last:start])
		if kind != '!' {
			b.WriteString(s[text:e])
		}
		last = p + 1
		i = p
	}
	if last == 0 {
		return s
	}
	b.WriteString(s[last:])
	return b.String()
}

// dropFootnoteRefs removes footnote references, \[\^[^\]\s]+\].
func dropFootnoteRefs(s string) string {
	i := strings.Index(s, "[^")
	if i < 0 {
		return s
	}
	stop := nextIndex{s: s, match: func(s string, i int) bool { return s[i] == ']' || isPerlSpace(s[i]) }}
	var b strings.Builder
	last := 0
	for ; i+1 < len(s); i++ {
		if s[i] != '[' || s[i+1] != '^' {
			continue
		}
		e := stop.find(i + 2)
		if e < 0 {
			break
		}
		if e == i+2 || s[e] != ']' {
			continue
		}
		b.WriteString(s[last:i])
		last = e + 1
		i = e
	}
	if last == 0 {
		return s
	}
	b.WriteString(s[last:])
	return b.String()
}

// pairedMarks handles the two-character marks whose text may not span lines:
//   - strong, (\*\*|__)(\S(?:.*?\S)?)(\*\*|__) → the text (strike false)
//   - strike, ~~(\S(?:.*?\S)?)~~ → "" (strike true)
//
// From an opener, the text is the shortest that ends in a non-space before a closer on the same
// line; failing that, a single character right before a closer.
func pairedMarks(s string, strike bool) string {
	isMark := func(s string, i int) bool {
		if i+1 >= len(s) || s[i] != s[i+1] {
			return false
		}
		if strike {
			return s[i] == '~'
		}
		return s[i] == '*' || s[i] == '_'
	}
	var first int
	if strike {
		first = strings.Index(s, "~~")
	} else if first = strings.Index(s, "**"); first < 0 {
		first = strings.Index(s, "__")
	} else if j := strings.Index(s[:first], "__"); j >= 0 {
		first = j
	}
	if first < 0 {
		return s
	}
	// A closer at p ends the text when the byte before it is not a space.
	closer := nextIndex{s: s, match: func(s string, p int) bool { return isMark(s, p) && p > 0 && !isPerlSpace(s[p-1]) }}
	newline := nextIndex{s: s, c: '\n'}
	var b strings.Builder
	last := 0
	for i := first; i+1 < len(s); i++ {
		if !isMark(s, i) {
			continue
		}
		j := i + 2
		if j >= len(s) || isPerlSpace(s[j]) {
			continue
		}
		q := j + runeWidth(s, j)
		end := -1 // the closer's position
		if p := closer.find(q + 1); p >= 0 {
			if nl := newline.find(q); nl < 0 || nl > p {
				end = p
			}
		}
		if end < 0 && isMark(s, q) {
			end = q
		}
		if end < 0 {
			continue
		}
		b.WriteString(s[last:i])
		if !strike {
			b.WriteString(s[j:end])
		}
		last = end + 2
		i = end + 1
	}
	if last == 0 {
		return s
	}
	b.WriteString(s[last:])
	return b.String()
}

// singleMarks handles one-character emphasis, whose text may span lines but holds no mark:
//   - star, (^|[^\w*])\*(\S(?:[^*]*?\S)?)\* → the character before and the text (mark '*')
//   - underscore, (^|[^\p{L}\p{N}_\\])_(\S(?:[^_]*?\S)?)_($|[^\p{L}\p{N}_]) → the characters
//     before and after, and the text (mark '_')
func singleMarks(s string, mark byte) string {
	if strings.IndexByte(s, mark) < 0 {
		return s
	}
	next := nextIndex{s: s, c: mark}
	// before reports whether r may stand before the opening mark.
	before := func(r rune) bool {
		if mark == '*' {
			return !isASCIIWord(r) && r != '*'
		}
		return !unicode.IsLetter(r) && !unicode.IsNumber(r) && r != '_' && r != '\\'
	}
	// after is the character the closing mark at p needs after it (the end of the text, or a
	// rune that is not a letter, digit or '_'), and whether it is there.
	after := func(p int) (string, bool) {
		if mark == '*' || p+1 == len(s) {
			return "", true
		}
		r, w := utf8.DecodeRuneInString(s[p+1:])
		if unicode.IsLetter(r) || unicode.IsNumber(r) || r == '_' {
			return "", false
		}
		return s[p+1 : p+1+w], true
	}
	// at matches the mark at a: it returns the closing mark's position and the text after it.
	at := func(a int) (int, string, bool) {
		j := a + 1
		if s[a] != mark || j >= len(s) || isPerlSpace(s[j]) {
			return 0, "", false
		}
		q := j + runeWidth(s, j)
		f := next.find(q)
		if f < 0 {
			return 0, "", false
		}
		// The candidates, shortest text first: a non-space right before the next mark; the
		// next mark itself as the text's last character, before another; the single first
		// character, right before a mark.
		if f > q && !isPerlSpace(s[f-1]) {
			if g3, ok := after(f); ok {
				return f, g3, true
			}
		}
		if f+1 < len(s) && s[f+1] == mark {
			if g3, ok := after(f + 1); ok {
				return f + 1, g3, true
			}
		}
		if f == q {
			if g3, ok := after(q); ok {
				return q, g3, true
			}
		}
		return 0, "", false
	}
	var b strings.Builder
	last := 0
	// Step rune by rune from the start, as the expression did: the character before the mark is
	// one rune, and an invalid byte is one.
	start := 0
	for start < len(s) {
		w := runeWidth(s, start)
		a := -1
		var p int
		var g3 string
		var ok bool
		if start == 0 {
			p, g3, ok = at(0)
			a = 0
		}
		if !ok && start+w < len(s) {
			if r, _ := utf8.DecodeRuneInString(s[start:]); before(r) {
				p, g3, ok = at(start + w)
				a = start + w
			}
		}
		if !ok {
			start += w
			continue
		}
		b.WriteString(s[last:a])
		b.WriteString(s[a+1 : p])
		b.WriteString(g3)
		start = p + 1 + len(g3)
		last = start
	}
	if last == 0 {
		return s
	}
	b.WriteString(s[last:])
	return b.String()
}

// collapseSpace replaces each run of \s (tab, newline, form feed, carriage return, space) by
// one space.
func collapseSpace(s string) string {
	i := 0
	for ; i < len(s); i++ {
		if isPerlSpace(s[i]) && (s[i] != ' ' || i+1 < len(s) && isPerlSpace(s[i+1])) {
			break
		}
	}
	if i == len(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	b.WriteString(s[:i])
	for i < len(s) {
		if !isPerlSpace(s[i]) {
			b.WriteByte(s[i])
			i++
			continue
		}
		for i < len(s) && isPerlSpace(s[i]) {
			i++
		}
		b.WriteByte(' ')
	}
	return b.String()
}
