package okf

import "testing"

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
