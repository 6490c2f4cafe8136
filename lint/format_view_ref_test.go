package lint

import (
	"math/rand/v2"
	"strings"
	"testing"
	"unicode/utf8"
)

// alikeKeyRef is alikeKey as first written, a rune at a time: the definition appendAlike's
// run-at-a-time copy must equal (TestAlikeKeyMatchesRef, FuzzAlikeKey).
func alikeKeyRef(msg string) string {
	var b strings.Builder
	prev := rune(' ')
	for i := 0; i < len(msg); {
		r, size := utf8.DecodeRuneInString(msg[i:])
		switch {
		case r == '"':
			j := i + 1
			for j < len(msg) && msg[j] != '"' {
				if msg[j] == '\\' {
					j++
				}
				j++
			}
			if j >= len(msg) {
				b.WriteString(msg[i:])
				return b.String()
			}
			b.WriteByte('\x02')
			i, prev = j+1, '"'
			continue
		case r == '[':
			if j := strings.IndexAny(msg[i+1:], "[]"); j >= 0 && msg[i+1+j] == ']' {
				b.WriteByte('\x02')
				i, prev = i+j+2, ']'
				continue
			}
		case r >= '0' && r <= '9' && !isASCIIWord(prev) && !isValueByte(byteOf(prev)) && prev != '§':
			j := i
			for j < len(msg) && isValueByte(msg[j]) {
				j++
			}
			b.WriteByte('\x02')
			i, prev = j, '0'
			continue
		}
		b.WriteString(msg[i : i+size])
		i, prev = i+size, r
	}
	return b.String()
}

// TestAlikeKeyMatchesRef: on messages made of the pieces that decide a key (quotes, escapes,
// brackets, digits after words, §, value punctuation, multi-byte and broken UTF-8), the fast key
// is the reference's.
func TestAlikeKeyMatchesRef(t *testing.T) {
	pieces := []string{`"`, `\`, `[`, `]`, "0", "7", "a", "Z", "_", " ", ".", ":", "-", "+", "/", "§", "é", "\xc2", "\xa7", "\xff", "\xe2\x82", "D", "(", ",", "v0.1", "§4.1", "2025-03-07T03:39:25Z"}
	r := rand.New(rand.NewPCG(1, 2))
	for n := 0; n < 200000; n++ {
		var b strings.Builder
		for k := r.IntN(12); k >= 0; k-- {
			b.WriteString(pieces[r.IntN(len(pieces))])
		}
		s := b.String()
		if got, want := alikeKey(s), alikeKeyRef(s); got != want {
			t.Fatalf("alikeKey(%q) = %q, want %q", s, got, want)
		}
	}
}

func FuzzAlikeKey(f *testing.F) {
	for _, s := range []string{`status "active" is not draft (§5.4, D13)`, `write tags: [a, b] (§4.1)`, "v0.1 \xc2§9 \"x\\\"", "é1 §2 a3 [x [y] 4.5"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := alikeKey(s), alikeKeyRef(s); got != want {
			t.Fatalf("alikeKey(%q) = %q, want %q", s, got, want)
		}
	})
}
