package lint

import (
	"reflect"
	"regexp"
	"testing"
)

// sentenceBreakRE finds the end of a sentence followed by the start of another: a full stop,
// question or exclamation mark, optional closing quote or bracket, space, then a capital or digit.
// It is the definition sentenceBreaks implements; only this test compiles it, since compiling it
// at init was most of the lint package's ~0.4 ms of init in every okf process (its Unicode classes).
var sentenceBreakRE = regexp.MustCompile(`([\p{L}\p{N})\]"'’”]*)[.!?]["'’”)\]]?\s+[\p{Lu}\p{N}]`)

// The scanner finds the same words as sentenceBreakRE, on hand-picked and random descriptions.
func TestSentenceBreaksMatchRE(t *testing.T) {
	cases := []string{
		"One. Two.", "e.g. This", "U.S. Army", "Foo. A. Bar", "He said \"hi.\" Then", "(see x.) Next", "a.. B", "x.\tY",
		"Ends here.", "No break.next", "Über. Äpfel! 3 more? Yes", "a.’ B", "a.” B", "a.)B", "v2.0. Next", "x. \u00a0Y", "x.\n\nY",
	}
	alphabet := []string{"a", "B", "é", "Ä", "1", ".", "!", "?", " ", "\t", "\"", "'", "’", "”", ")", "]", "(", ",", "e.g", "\u00a0", "Ⅻ"}
	r := uint64(7)
	for i := 0; i < 20000; i++ {
		var s string
		r ^= r << 13
		r ^= r >> 7
		r ^= r << 17
		for n := int(r % 14); n > 0; n-- {
			r ^= r << 13
			r ^= r >> 7
			r ^= r << 17
			s += alphabet[r%uint64(len(alphabet))]
		}
		cases = append(cases, s)
	}
	for _, s := range cases {
		var want, got []string
		for _, m := range sentenceBreakRE.FindAllStringSubmatch(s, -1) {
			want = append(want, m[1])
		}
		sentenceBreaks(s, func(w string) { got = append(got, w) })
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("%q: scanner %q, regexp %q", s, got, want)
		}
	}
}
