// Package suggest words the "did you mean" of every okf command: the nearest of a closed list of
// values to a misspelt one (Closest), and the one error for a value outside such a list
// (UnknownValue). It is a leaf that okf/ and every command import, so a misspelt flag value, rule
// code or configuration key is answered the same way everywhere.
package suggest

import (
	"strings"
	"unicode/utf8"
)

// Closest returns the candidate nearest to word for a "did you mean" hint: compared without
// regard to case, within an edit distance of a third of the word's length (at least 1, at most 3),
// or one the word is a prefix of (three runes or more). It returns "" when none is close; ties go to
// the candidate listed first.
func Closest(word string, candidates []string) string {
	w := strings.ToLower(word)
	if w == "" {
		return ""
	}
	limit := min(max(utf8.RuneCountInString(w)/3, 1), 3)
	best, bestD := "", limit+1
	long := utf8.RuneCountInString(w) > maxEditRunes // editDistance gives up on it: no need to call it
	for _, c := range candidates {
		lc := strings.ToLower(c)
		if lc == w {
			return c
		}
		if long {
			continue
		}
		d := editDistance(w, lc)
		if d < bestD {
			best, bestD = c, d
		}
	}
	if best != "" {
		return best
	}
	if utf8.RuneCountInString(w) >= 3 {
		for _, c := range candidates {
			if strings.HasPrefix(strings.ToLower(c), w) {
				return c
			}
		}
	}
	return ""
}

// maxEditRunes is the longest word editDistance compares.
const maxEditRunes = 64

// editDistance is the Levenshtein distance between a and b, in runes, with a transposition of two
// neighbours counting as one edit (okf-lint-disabel is one edit from okf-lint-disable).
func editDistance(a, b string) int {
	if utf8.RuneCountInString(a) > maxEditRunes || utf8.RuneCountInString(b) > maxEditRunes {
		if a == b {
			return 0
		}
		return 1 << 20 // long inputs: no suggestion, and no quadratic cost on hostile text
	}
	ra, rb := []rune(a), []rune(b) // counted first: a 1 MB word is not converted per candidate
	prev2 := make([]int, len(rb)+1)
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && ra[i-1] == rb[j-2] && ra[i-2] == rb[j-1] {
				cur[j] = min(cur[j], prev2[j-2]+1)
			}
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(rb)]
}
