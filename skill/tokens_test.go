package skill

import (
	"strings"
	"testing"
)

// TestTokensKnownText: counts of o200k_base on text whose count is known from OpenAI's tokenizer
// (tiktoken's o200k_base: "hello world" is 2 tokens, "Hello, world!" 4, and a line break between
// two words makes 3).
func TestTokensKnownText(t *testing.T) {
	for _, c := range []struct {
		text string
		want int
	}{
		{"", 0},
		{"hello world", 2},
		{"Hello, world!", 4},
		{"hello\nworld", 3},
	} {
		if got := Tokens(c.text); got != c.want {
			t.Errorf("Tokens(%q) = %d, want %d", c.text, got, c.want)
		}
	}
}

// TestTokensLineSplitExact: counting a line at a time gives the count of the whole text, on
// Markdown with frontmatter, blank lines, indented lines and trailing spaces.
func TestTokensLineSplitExact(t *testing.T) {
	text := "---\ntype: Metric\ntitle: \"Revenue\"\n---\n\n# Definition\n\nRevenue is   \n  indented\n\n\n\tcode\n* [a](b.md) - c\n\r\nend \n"
	whole, err := o200k().Count(text)
	if err != nil {
		t.Fatal(err)
	}
	if got := Tokens(text); got != whole {
		t.Errorf("Tokens = %d, the tokenizer on the whole text = %d", got, whole)
	}
}

// TestTokensBounded: a long line of one letter, quadratic in the tokenizer's byte-pair merge (a
// whole MiB took over ten minutes), is counted in pieces; the count stays near one token per 8
// letters, as o200k merges runs of "a".
func TestTokensBounded(t *testing.T) {
	if n := Tokens(strings.Repeat("a", 1<<20)); n < (1<<20)/16 || n > (1<<20)/4 {
		t.Errorf("Tokens(1 MiB of a) = %d", n)
	}
}
