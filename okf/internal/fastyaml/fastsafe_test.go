package fastyaml

import (
	"math/rand"
	"testing"
	"unicode/utf8"
)

// fastSafeRef is fastSafe as it was written before its table: the switch on every byte.
func fastSafeRef(raw []byte) bool {
	for i := 0; i < len(raw); {
		c := raw[i]
		if c < utf8.RuneSelf {
			switch {
			case c == '\n':
			case c < 0x20 || c == 0x7f:
				return false
			case c == '#' && (i == 0 || raw[i-1] == ' ' || raw[i-1] == '\n'):
				return false
			}
			i++
			continue
		}
		r, size := utf8.DecodeRune(raw[i:])
		if r == utf8.RuneError || r < 0xA0 || r == 0x2028 || r == 0x2029 || r == 0xFEFF || r == 0xFFFE || r == 0xFFFF {
			return false
		}
		i += size
	}
	return true
}

// The table only skips what the switch let through: every byte alone and after a space or a
// letter, and 200,000 random texts over the bytes that matter, read the same.
func TestFastSafeTable(t *testing.T) {
	for c := 0; c < 256; c++ {
		for _, text := range [][]byte{{byte(c)}, {' ', byte(c)}, {'a', byte(c)}, {byte(c), '#'}, {'\n', byte(c), 'x'}} {
			if got, want := fastSafe(text), fastSafeRef(text); got != want {
				t.Errorf("fastSafe(%q) = %v, want %v", text, got, want)
			}
		}
	}
	alphabet := []byte("a #\n\t\r\x7f\x00:-\xc2\x85\xa0\xe2\x80\xa8\xef\xbb\xbf\xff")
	rng := rand.New(rand.NewSource(1))
	for n := 0; n < 200000; n++ {
		text := make([]byte, rng.Intn(12))
		for i := range text {
			text[i] = alphabet[rng.Intn(len(alphabet))]
		}
		if got, want := fastSafe(text), fastSafeRef(text); got != want {
			t.Fatalf("fastSafe(%q) = %v, want %v", text, got, want)
		}
	}
}
