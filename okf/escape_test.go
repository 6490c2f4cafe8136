package okf

import (
	"encoding/json"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"
)

func TestEscapeControl(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"plain text, ünïcode 日本 🎣", "plain text, ünïcode 日本 🎣"},
		{"a\nb", `a\nb`},
		{"x.md\n::error file=a.md::pwned", `x.md\n::error file=a.md::pwned`},
		{"\r\t\x1b[31mred", `\r\t\x1b[31mred`},
		{"\x7f\u0085", `\x7f\x85`},
		{"abc\u202edcba", `abc\u202edcba`},
		{"\u2066iso\u2069", `\u2066iso\u2069`},
		{"line\u2028sep", `line\u2028sep`},
		{"bad\xffutf8", `bad\xffutf8`},
		{`back\slash`, `back\slash`},
		{"##[error]forged", `##\x5berror]forged`},
		{"###[x] ## [y] #[z]", `###\x5bx] ## [y] #[z]`},
		{"::error::x", "::error::x"},
	} {
		if got := EscapeControl(c.in); got != c.want {
			t.Errorf("EscapeControl(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestEscapeMarkdown(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"Orders table", "Orders table"},
		{"![x](https://evil/p.png)", `\!\[x\]\(https\://evil/p\.png\)`},
		{"</details><img src=x>", `&lt;/details&gt;&lt;img src\=x&gt;`},
		{"a | b", `a \| b`},
		{"@team *bold* _em_ `code`", "\\@team \\*bold\\* \\_em\\_ \\`code\\`"},
		{"two\nlines", `two\\nlines`},
		{"##[error]x", `\#\#\[error\]x`},
	} {
		if got := EscapeMarkdown(c.in); got != c.want {
			t.Errorf("EscapeMarkdown(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestEscapeMarkdownCode(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"tables/orders", "`tables/orders`"},
		{"a`b", "``a`b``"},
		{"`x", "`` `x ``"},
		{"a|b", "`a\\|b`"},
		{"", "`  `"},
	} {
		if got := EscapeMarkdownCode(c.in); got != c.want {
			t.Errorf("EscapeMarkdownCode(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestEscapeLineStart(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"tables/orders.md", "tables/orders.md"},
		{"::error file=a.md::pwned", `\x3a:error file=a.md::pwned`},
		{"  ::warning::x", `  \x3a:warning::x`},
		{"\u00a0\u3000:x", "\u00a0\u3000\\x3ax"},
		{"a::b", "a::b"},
		{"\n::error::x", `\n::error::x`},
		{"\t::error::x", `\t::error::x`},
	} {
		if got := EscapeLineStart(c.in); got != c.want {
			t.Errorf("EscapeLineStart(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestEscapeJSONLog(t *testing.T) {
	in := []byte(`{"message": "##[error]forged", "n": 1}`)
	want := `{"message": "##\u005berror]forged", "n": 1}`
	got := EscapeJSONLog(in)
	if string(got) != want {
		t.Errorf("EscapeJSONLog = %s, want %s", got, want)
	}
	var a, b map[string]any
	if err := json.Unmarshal(in, &a); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(got, &b); err != nil || a["message"] != b["message"] {
		t.Errorf("escaped JSON reads %v (%v), want the same value %v", b, err, a)
	}
	if plain := []byte(`{"a": "# [b]"}`); &EscapeJSONLog(plain)[0] != &plain[0] {
		t.Error("JSON without ##[ was copied")
	}
}

// FuzzEscapeLineStart checks the promises on any input: the result is valid UTF-8 with no control
// character, bidi control or line separator, no `##[`, and no `:` as its first non-blank character.
func FuzzEscapeLineStart(f *testing.F) {
	for _, s := range []string{"x.md\n::error file=a::b", " ::warning::", "##[error]", "#\x1b#[", "\u202e", "\xff:"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got := EscapeLineStart(s)
		if !utf8.ValidString(got) {
			t.Fatalf("%q: invalid UTF-8 %q", s, got)
		}
		for _, r := range got {
			if unsafeRune(r) {
				t.Fatalf("%q: %q keeps %U", s, got, r)
			}
		}
		if strings.Contains(got, "##[") || strings.HasPrefix(strings.TrimLeftFunc(got, unicode.IsSpace), ":") {
			t.Fatalf("%q: %q can still be read as a workflow command", s, got)
		}
	})
}
