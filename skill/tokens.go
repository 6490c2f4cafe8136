package skill

import (
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/tiktoken-go/tokenizer/codec"
)

// Tokenizer names the tokenizer every count of okf budget is in: OpenAI's o200k_base, the one the
// serve package's tools/list budget is counted in.
const Tokenizer = "o200k_base"

// o200k is loaded once, on first use (its vocabulary is large); only the codec package is linked,
// so the other vocabularies stay out of the binary.
var o200k = sync.OnceValue(codec.NewO200kBase)

// maxPiece bounds the text handed to the tokenizer at once: its byte-pair merge takes time
// quadratic in a word's length, so a bundle's 8 MiB line of one letter would take minutes.
const maxPiece = 4 << 10

// Tokens counts s in o200k_base tokens. It counts s a line at a time, cut where the tokenizer's
// own pre-split cuts (after a line break followed by a character that is not a space), so the
// count is exact; a line longer than 4 KiB is counted in 4 KiB pieces, cut before a space where
// there is one, which can count a few tokens more than the whole line would.
func Tokens(s string) int {
	n := 0
	for s != "" {
		end := lineEnd(s)
		line := s[:end]
		s = s[end:]
		for len(line) > maxPiece {
			cut := pieceCut(line)
			n += count(line[:cut])
			line = line[cut:]
		}
		n += count(line)
	}
	return n
}

// lineEnd is the length of s's first line: up to and with a run of line breaks and spaces that a
// character other than a space follows (the tokenizer never joins text across that point).
func lineEnd(s string) int {
	i := strings.IndexByte(s, '\n')
	for i >= 0 {
		j := i + 1
		if j == len(s) {
			return j
		}
		if c := s[j]; c != '\n' && c != '\r' && c != ' ' && c != '\t' && c != '\v' && c != '\f' && c < utf8.RuneSelf {
			return j
		}
		k := strings.IndexByte(s[j:], '\n')
		if k < 0 {
			return len(s)
		}
		i = j + k
	}
	return len(s)
}

// pieceCut is where to cut a line longer than maxPiece: before the last space in its first
// maxPiece bytes when that is past the middle, else at the last rune boundary.
func pieceCut(line string) int {
	cut := maxPiece
	for cut > 0 && !utf8.RuneStart(line[cut]) {
		cut--
	}
	if i := strings.LastIndexByte(line[:cut], ' '); i > maxPiece/2 {
		return i
	}
	if cut == 0 {
		return maxPiece
	}
	return cut
}

func count(s string) int {
	n, err := o200k().Count(s)
	if err != nil {
		return len(s) // an upper bound: never below one token a byte
	}
	return n
}
