package okf

import (
	"fmt"
	"strings"
	"testing"
)

func TestScalarSpan(t *testing.T) {
	src := []byte("---\na: plain # c\nb: 'single'\nc: \"double\"\nd: [x, y]\ne: \"esc\\tape\"\nf: >-\n  folded\n---\n")
	fm := readOrFail(t, src)
	cases := []struct {
		key, text string
		quote     byte
		ok        bool
	}{
		{"a", "plain", 0, true},
		{"b", "'single'", '\'', true},
		{"c", `"double"`, '"', true},
		{"e", "", 0, false}, // an escape: the text is not the value
		{"f", "", 0, false}, // a block scalar
	}
	for _, tc := range cases {
		k, _ := fm.Key(tc.key)
		s, e, q, ok := ScalarSpan(src, k.Value)
		if ok != tc.ok || ok && (string(src[s:e]) != tc.text || q != tc.quote) {
			t.Errorf("%s: got %q %q %v, want %q %q %v", tc.key, src[s:e], q, ok, tc.text, tc.quote, tc.ok)
		}
	}
	// An item of a flow sequence ends at its comma.
	fl := readOrFail(t, []byte("---\ntags: [x1, 'y2']\n---\n"))
	var got []string
	for _, it := range fl.Tags.Items {
		if s, e, _, ok := ScalarSpan([]byte("---\ntags: [x1, 'y2']\n---\n"), it); ok {
			got = append(got, string("---\ntags: [x1, 'y2']\n---\n"[s:e]))
		}
	}
	if strings.Join(got, "|") != "x1|'y2'" {
		t.Errorf("flow items: %q", got)
	}
}

func readOrFail(t *testing.T, src []byte) *Frontmatter {
	t.Helper()
	c, _ := ParseConcept("c.md", src)
	if !c.Frontmatter.Present {
		t.Fatalf("no frontmatter in %q", src)
	}
	return c.Frontmatter
}

func TestQuote(t *testing.T) {
	for _, tc := range []struct {
		text  string
		quote byte
		want  string
	}{
		{"sales", 0, "sales"},
		{"process:okf-migrate", 0, "process:okf-migrate"},
		{"https://x.example/a#b", 0, "https://x.example/a#b"},
		{"2026", 0, `"2026"`},
		{"yes", 0, `"yes"`}, // a string in YAML 1.2 (D3), a boolean to a 1.1 reader: quoted for both
		{"true", 0, `"true"`},
		{"null", 0, `"null"`},
		{"&anchor", 0, `"&anchor"`},
		{"a, b", 0, `"a, b"`},
		{"a: b", 0, `"a: b"`},
		{"x # y", 0, `"x # y"`},
		{"- item", 0, `"- item"`},
		{"R&D <x>", 0, "R&D <x>"},
		{"R&D: <x>", 0, `"R&D: <x>"`},
		{"000000:", 0, `"000000:"`}, // text in a flow list, a mapping as a block value (found by fuzzing)
		{"it's", '\'', `"it's"`},
		{"ok", '\'', `'ok'`},
		{"esc\x1b", 0, `"esc\u001b"`},
		{"del\x7f c1\u0085\u009b", 0, "\"del\\u007f c1\u0085\\u009b\""}, // found by fuzzing; NEL is printable in YAML
	} {
		if got := Quote(tc.text, tc.quote); got != tc.want {
			t.Errorf("Quote(%q, %q) = %s, want %s", tc.text, tc.quote, got, tc.want)
		}
	}
}

func TestApplyEditsRefusesOverlap(t *testing.T) {
	src := []byte("abcdef")
	got, err := ApplyEdits(src, []Edit{{4, 6, "XY"}, {0, 1, ""}, {2, 2, "+"}})
	if err != nil || string(got) != "b+cdXY" {
		t.Errorf("got %q %v", got, err)
	}
	if _, err := ApplyEdits(src, []Edit{{0, 3, "x"}, {2, 4, "y"}}); err == nil {
		t.Error("overlapping edits accepted")
	}
	if _, err := ApplyEdits(src, []Edit{{5, 9, "x"}}); err == nil {
		t.Error("an edit past the end accepted")
	}
}

// Two changes far apart make two hunks; the second hunk's new start counts the first's added line.
func TestUnifiedDiffHunks(t *testing.T) {
	var lines []string
	for i := 1; i <= 20; i++ {
		lines = append(lines, "l"+string(rune('a'+i-1)))
	}
	src := []byte(strings.Join(lines, "\n") + "\n")
	at := func(line int) int { return OffsetOf(src, line, 1) }
	edits := []Edit{
		{at(2), at(3), "lb\nnew\n"},   // line 2 gets a line after it
		{at(15), at(16), "CHANGED\n"}, // line 15 replaced
	}
	want := "--- a/f.md\n+++ b/f.md\n" +
		"@@ -1,5 +1,6 @@\n la\n-lb\n+lb\n+new\n lc\n ld\n le\n" +
		"@@ -12,7 +13,7 @@\n ll\n lm\n ln\n-lo\n+CHANGED\n lp\n lq\n lr\n"
	if got := UnifiedDiff("f.md", src, edits); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

// TestPlainSafeMemo: the remembered verdicts are the ones PlainSafe computes, asked once or again,
// and the memo never holds more than its bound.
func TestPlainSafeMemo(t *testing.T) {
	texts := []string{"finance", "3", "1e3", "true", "null", "~", "a: b", "a:b", "#x", "x #y", "[a]", "{a}", "é", "2026-01-01", "- a", "a,b", "'q'", "yes", ".inf", "0x1F"}
	for round := range 2 {
		for _, s := range texts {
			if got, want := PlainSafe(s), plainSafe(s); got != want {
				t.Errorf("round %d: PlainSafe(%q) = %v, want %v", round, s, got, want)
			}
		}
	}
	for i := range maxPlainSafeMemo + 100 {
		PlainSafe(fmt.Sprintf("tag%d", i))
	}
	plainSafeMemo.Lock()
	n := len(plainSafeMemo.m)
	plainSafeMemo.Unlock()
	if n > maxPlainSafeMemo {
		t.Errorf("the memo holds %d verdicts, more than %d", n, maxPlainSafeMemo)
	}
}

// TestPlainWordIsPlainSafe: every text the quick path calls plain is one plainSafe (two YAML
// parses and the YAML 1.1 words) calls plain: all short texts over letters, digits and the
// punctuation near words, and every case of YAML's words for booleans, null and numbers.
func TestPlainWordIsPlainSafe(t *testing.T) {
	check := func(s string) {
		if plainWord(s) && !plainSafe(s) {
			t.Errorf("plainWord(%q) is true but plainSafe is false", s)
		}
	}
	alphabet := []string{"a", "Y", "n", "o", "e", "0", "1", "_", "-", ".", " ", ":"}
	var walk func(prefix string, depth int)
	walk = func(prefix string, depth int) {
		if prefix != "" {
			check(prefix)
		}
		if depth == 0 {
			return
		}
		for _, c := range alphabet {
			walk(prefix+c, depth-1)
		}
	}
	walk("", 4)
	for _, w := range []string{"y", "n", "yes", "no", "on", "off", "true", "false", "null", "nan", "inf", "nil", "none", "tilde", "e1", "x0", "b0", "o1"} {
		for mask := 0; mask < 1<<len(w); mask++ {
			b := []byte(w)
			for i := range b {
				if mask&(1<<i) != 0 {
					b[i] = byte(strings.ToUpper(string(b[i]))[0])
				}
			}
			check(string(b))
		}
	}
	for _, s := range []string{"okf", "machine-learning", "snake_case", "k8s", "Python3", "a-", "a_"} {
		if !plainWord(s) {
			t.Errorf("plainWord(%q) = false, want the quick yes", s)
		}
		check(s)
	}
}
