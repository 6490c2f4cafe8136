package lint

import (
	"unicode"
	"unicode/utf8"
)

// sentenceBreaks calls f with the word before each sentence break of s, the matches of
// sentenceBreakRE's first group in order, without the regular expression: that leading
// "[…]*" made the engine backtrack over every word of every description (issue 11). A break is
// a full stop, question or exclamation mark, an optional closing quote or bracket, white space,
// then a capital letter or digit; the word is the run of letters, digits, quotes and brackets just
// before the mark, not reaching into the previous match. TestSentenceBreaksMatchRE compares the two.
func sentenceBreaks(s string, f func(word string)) {
	from := 0 // where the previous match ended
	for i := 0; i < len(s); i++ {
		if c := s[i]; c != '.' && c != '!' && c != '?' {
			continue
		}
		j := i + 1
		if r, size := utf8.DecodeRuneInString(s[j:]); j < len(s) && isCloser(r) {
			if k := j + size; k < len(s) && isRESpace(s[k]) {
				j = k
			}
		}
		k := j
		for k < len(s) && isRESpace(s[k]) {
			k++
		}
		if k == j || k == len(s) {
			continue
		}
		r, size := utf8.DecodeRuneInString(s[k:])
		if !unicode.IsUpper(r) && !unicode.IsNumber(r) {
			continue
		}
		start := i
		for start > from {
			r, size := utf8.DecodeLastRuneInString(s[from:start])
			if !isWordRune(r) {
				break
			}
			start -= size
		}
		f(s[start:i])
		from = k + size
		i = from - 1
	}
}

// isRESpace is \s of Go's regexp: [\t\n\f\r ].
func isRESpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\f' || c == '\r' }

// isCloser is ["'’”)\]].
func isCloser(r rune) bool {
	return r == '"' || r == '\'' || r == '’' || r == '”' || r == ')' || r == ']'
}

// isWordRune is [\p{L}\p{N})\]"'’”].
func isWordRune(r rune) bool {
	return unicode.IsLetter(r) || unicode.IsNumber(r) || r == ')' || r == ']' || r == '"' || r == '\'' || r == '’' || r == '”'
}
