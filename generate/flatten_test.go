package generate

import (
	"strings"
	"testing"
)

// flattenCases are texts where the regular expressions' leftmost-first, lazy matching decides the
// output: marks that share a boundary, closers of the other kind, text across lines, escapes,
// invalid UTF-8, letters and digits around underscores.
var flattenCases = []string{
	"A [link](https://x) and ![img](i.png) with **bold**, *em*, ~~gone~~ text[^1] and `co*de*` snake_case_name \\*not em\\* C:\\dir.",
	"**a** b **c**", "***a***", "**a__", "__a**", "** a**", "**a **", "**a\nb**", "**\n**", "****", "**", "*", "**a*", "*a**",
	"*a*b*", "*a* *b*", "a*b*c", "*a\nb*", "* a*", "*a *", "**", "*ab*", "x*a**b", "(*a*)", "*é*", "é*a*", "_a_", "__a__",
	"_a_b_", "_a_ _b_", "a_b_c", "_a_é", "é_a_", "(_a_)", "_a__", "__a_", "_a\nb_", "\\_a_", "_a_\\", "1_a_2", "_1_", "x_a_ _b_ _c_y",
	"~~a~~", "~~a~~b~~", "~~ a~~", "~~a\n~~", "~~~a~~~", "[a](b)", "[a](b", "[a]b", "![a](b)", "!![a](b)", "![a](b)(c)", "[a [b](c)",
	"[a][b]", "[^a][b]", "[][b]", "[a]]b]", "[^1] [^ 1] [^1 ] [^]", "[^a\tb]", "[^[^x]]", "![a](b)[c](d)[e][f][^g]",
	"\\[a](b)", "[a\\](b)", "\\\\*a*", "\\*a\\*", "\ue12aa\ue12a", "*\xff*", "_\xff_", "\xe2\x82_a_", "*\xe2\x82*", "a\xc3*b*",
	"\t a \n\n b \f\r\v c\u00a0 ", "", " ", "`a_b_c` *x*", "**a**b**c**d", "__a__b__", "*a**b*", "_a__b_", "**a*b*c**",
	"_ a_ _b _", "*\u3000a*", "_\u3000a_", "_a_\u3000", "\u3000_a_", "_a_1", "_a_\ue12a", "\ue12a_a_", "!\\[a](b)",
}

// TestFlattenMatchesReference: the scanner gives the bytes the chain of regular expressions gave
// (flatten_ref_test.go), on each case and on each case next to each other case.
func TestFlattenMatchesReference(t *testing.T) {
	check := func(in string) {
		t.Helper()
		if got, want := Flatten(in), flattenRE(in); got != want {
			t.Errorf("Flatten(%q) = %q, the regular expressions gave %q", in, got, want)
		}
	}
	for _, a := range flattenCases {
		check(a)
		for _, b := range flattenCases {
			check(a + b)
			check(a + " " + b)
		}
	}
}

// TestFlattenLinear: hostile text of openers that never close takes about the same time per
// byte at 16 KiB and at 256 KiB. Counted in the scanner's reads, not timed: nextIndex reads each
// byte about once per pass, so 10,000 unclosed '[' cost no more than 10,000 letters.
func TestFlattenLinear(t *testing.T) {
	for _, p := range []string{"[", "![", "[a", "[a](", "[a][", "[^", "[^a", "**a ", "__a ", "~~a ", "*a ", "_a ", " _a", "**", "*", "_", "\\"} {
		small, large := strings.Repeat(p, (16<<10)/len(p)), strings.Repeat(p, (256<<10)/len(p))
		if got, want := Flatten(small), flattenRE(small); got != want {
			t.Errorf("Flatten(%q × %d) differs from the regular expressions", p, len(small)/len(p))
		}
		reads := func(s string) int {
			n := 0
			countReads = &n
			defer func() { countReads = nil }()
			_ = Flatten(s)
			return n
		}
		rs, rl := reads(small), reads(large)
		if rs > 0 && float64(rl)/float64(rs) > 16*1.5 {
			t.Errorf("Flatten(%q × n): %d reads at 16 KiB, %d at 256 KiB: not linear", p, rs, rl)
		}
		if rl > 8*len(large) {
			t.Errorf("Flatten(%q × n): %d reads for %d bytes", p, rl, len(large))
		}
	}
}

// TestFlattenSmallAlphabet compares the scanner with the regular expressions on random texts made
// of the characters the patterns turn on (a fixed seed: the same texts every run).
func TestFlattenSmallAlphabet(t *testing.T) {
	alphabet := []string{"*", "*", "_", "_", "~", "[", "]", "(", ")", "!", "^", "\\", " ", "\n", "\t", "a", "b", "é", "1", "\xff", "\xe2\x82", "\u3000", "#", "`", ":", ">", "import", "=", "-", ".", "+"}
	randomTexts(31, 20000, 14, alphabet, func(in string) {
		if got, want := Flatten(in), flattenRE(in); got != want {
			t.Fatalf("Flatten(%q) = %q, the regular expressions gave %q", in, got, want)
		}
		if d, line := bodyLineMismatch(in); d != "" {
			t.Fatalf("%s(%q) differs from its regular expression", d, line)
		}
	})
}
