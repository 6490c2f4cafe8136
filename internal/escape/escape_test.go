package escape

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"reflect"
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
		if got := Control(c.in); got != c.want {
			t.Errorf("Control(%q) = %q, want %q", c.in, got, c.want)
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
		if got := Markdown(c.in); got != c.want {
			t.Errorf("Markdown(%q) = %q, want %q", c.in, got, c.want)
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
		if got := MarkdownCode(c.in); got != c.want {
			t.Errorf("MarkdownCode(%q) = %q, want %q", c.in, got, c.want)
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
		if got := LineStart(c.in); got != c.want {
			t.Errorf("LineStart(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestEscapeJSONLog(t *testing.T) {
	in := []byte(`{"message": "##[error]forged", "n": 1}`)
	want := `{"message": "##\u005berror]forged", "n": 1}`
	got := JSONLog(in)
	if string(got) != want {
		t.Errorf("JSONLog = %s, want %s", got, want)
	}
	var a, b map[string]any
	if err := json.Unmarshal(in, &a); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(got, &b); err != nil || a["message"] != b["message"] {
		t.Errorf("escaped JSON reads %v (%v), want the same value %v", b, err, a)
	}
	if plain := []byte(`{"a": "# [b]"}`); &JSONLog(plain)[0] != &plain[0] {
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
		got := LineStart(s)
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

// TestEscapeJSONLogRaw: JSON that no encoder wrote (an attester's details, a receipt file) may hold
// raw DEL, C1 controls, bidi controls and line separators inside strings, and invalid UTF-8. Each
// is escaped, white space between tokens is kept, and the JSON reads as the same values (invalid
// UTF-8 as U+FFFD, as a decoder reads it).
func TestEscapeJSONLogRaw(t *testing.T) {
	in := []byte("{\n\t\"a\": \"x\u2028y\u2029z\u202eq\u2066\x7f\u0085\u200e\u061c\",\r\n \"##[\": [\"##[error]\", \"\xff\"]}")
	got := JSONLog(in)
	want := "{\n\t\"a\": \"x\\u2028y\\u2029z\\u202eq\\u2066\\u007f\\u0085\\u200e\\u061c\",\r\n \"##\\u005b\": [\"##\\u005berror]\", \"\\ufffd\"]}"
	if string(got) != want {
		t.Errorf("JSONLog =\n%q\nwant\n%q", got, want)
	}
	var a, b any
	if err := json.Unmarshal(in, &a); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(got, &b); err != nil || !reflect.DeepEqual(a, b) {
		t.Errorf("escaped JSON reads %v (%v), want %v", b, err, a)
	}
}

// FuzzEscapeJSONLog checks the promises on any string, encoded as okf encodes it (with and without
// HTML escaping, compact and indented, as a raw message inside another value): the result is valid
// UTF-8 JSON holding no `##[`, no line that starts with `::`, no raw control, bidi or separator
// rune, and decodes to exactly the values encoding/json wrote.
func FuzzEscapeJSONLog(f *testing.F) {
	for _, s := range []string{"##[error]x", "\n::error::x", "a\u2028b\u2029", "\x1b[31m\u202e", "\x7f\u0085", "\xff#", "#", "[", "##"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		raw, _ := json.Marshal(s)
		for _, html := range []bool{false, true} {
			for _, indent := range []string{"", "  "} {
				v := map[string]any{s: []any{s, json.RawMessage(raw)}, "k": s}
				var buf bytes.Buffer
				if err := EncodeJSONLog(&buf, v, indent, html); err != nil {
					t.Fatal(err)
				}
				got := buf.Bytes()
				if !utf8.Valid(got) || bytes.Contains(got, []byte("##[")) {
					t.Fatalf("%q: %q", s, got)
				}
				for _, line := range strings.Split(string(got), "\n") {
					if strings.HasPrefix(strings.TrimLeftFunc(line, unicode.IsSpace), ":") {
						t.Fatalf("%q: a line starts with a colon: %q", s, line)
					}
				}
				for _, r := range string(got) {
					if unsafeRune(r) && r != '\n' {
						t.Fatalf("%q: %q keeps %U", s, got, r)
					}
				}
				plain, _ := json.Marshal(v)
				var a, b any
				if err := json.Unmarshal(plain, &a); err != nil {
					t.Fatal(err)
				}
				if err := json.Unmarshal(got, &b); err != nil || !reflect.DeepEqual(a, b) {
					t.Fatalf("%q: reads %v (%v), want %v", s, b, err, a)
				}
			}
		}
	})
}

// TestAppendJSONString: AppendJSONString appends exactly what encoding/json (without HTML
// escaping) writes, and says so exactly when that needs no escape but \" and \\ and JSONLog leaves
// it as it is, on random strings of every byte each check looks at, placed at every offset of the
// eight-byte words it reads.
func TestAppendJSONString(t *testing.T) {
	pieces := []string{"a", "Z 9", "abcdefgh", "é", "§", "—", "\"", "\\", "\n", "\t", "\b", "\f", "\x00", "\x1f", " ", "\x7f", "\x80",
		"\u0085", "\u2028", "\u2029", "\u202e", "\u200e", "\xff", "\xe2\x80", "<b>&", "#", "##", "[", "##[", "~", "\U0001F600"}
	check := func(s string) {
		var enc bytes.Buffer
		e := json.NewEncoder(&enc)
		e.SetEscapeHTML(false)
		e.Encode(s)
		want := strings.TrimSuffix(enc.String(), "\n")
		byHand := `"` + strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(s) + `"`
		wantOK := want == byHand && string(JSONLog([]byte(want))) == want
		got, ok := AppendJSONString([]byte("x"), s)
		switch {
		case ok != wantOK:
			t.Fatalf("AppendJSONString(%q): ok %v, want %v", s, ok, wantOK)
		case ok && string(got) != "x"+want:
			t.Fatalf("AppendJSONString(%q) = %q, want %q", s, got[1:], want)
		case !ok && string(got) != "x":
			t.Fatalf("AppendJSONString(%q) appended %q and failed", s, got[1:])
		}
	}
	r := rand.New(rand.NewPCG(31, 6))
	for range 100_000 {
		var b strings.Builder
		for range r.IntN(12) {
			b.WriteString(pieces[r.IntN(len(pieces))])
		}
		check(b.String())
	}
	for c := range 256 { // every byte alone at every position of a word
		for at := range 17 {
			check(strings.Repeat("x", at) + string([]byte{byte(c)}) + strings.Repeat("y", 16-at))
		}
	}
}

// TestPercentControls: what Control would escape is percent-encoded byte by byte; the rest stays.
func TestPercentControls(t *testing.T) {
	for in, want := range map[string]string{
		"plain é.md":    "plain é.md",
		"a\nb":          "a%0Ab",
		"x\u2028y":      "x%E2%80%A8y",
		"bidi\u202e.md": "bidi%E2%80%AE.md",
		"bad\xffbyte":   "bad%FFbyte",
		"esc\x1b[31m":   "esc%1B[31m",
	} {
		if got := PercentControls(in); got != want {
			t.Errorf("PercentControls(%q) = %q, want %q", in, got, want)
		}
	}
}

// Clip cuts at a rune's start (a cut inside a rune would print a replacement character, or be
// refused by a JSON reader), keeps a value of MaxShown bytes whole, and Quote marks the cut after
// the closing quote.
func TestClip(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want int // bytes kept
		cut  bool
	}{
		{strings.Repeat("a", MaxShown), MaxShown, false},
		{strings.Repeat("a", MaxShown+1), MaxShown, true},
		{strings.Repeat("é", MaxShown), MaxShown, true},            // 2-byte runes: 256 is a start
		{"ab" + strings.Repeat("€", MaxShown), MaxShown - 2, true}, // 3-byte runes after two bytes
		{strings.Repeat("😀", MaxShown), MaxShown, true},            // 4-byte runes
		{"ab" + strings.Repeat("😀", MaxShown), MaxShown - 2, true}, // cut inside the 64th emoji
		{strings.Repeat("\xff", MaxShown+10), MaxShown, true},      // invalid bytes are each a start
	} {
		head, cut := Clip(tc.in)
		if len(head) != tc.want || cut != tc.cut || !strings.HasPrefix(tc.in, head) {
			t.Errorf("Clip(%.20q…): %d bytes, cut %v; want %d, %v", tc.in, len(head), cut, tc.want, tc.cut)
		}
		if utf8.ValidString(tc.in) && !utf8.ValidString(head) {
			t.Errorf("Clip(%.20q…) cut inside a rune", tc.in)
		}
		q := Quote(tc.in)
		if tc.cut != strings.HasSuffix(q, `"…`) || (tc.cut && Shown(tc.in) != head+"…") || (!tc.cut && Shown(tc.in) != tc.in) {
			t.Errorf("Quote/Shown(%.20q…) = %.40q / %.40q", tc.in, q, Shown(tc.in))
		}
	}
}

// ControlHex escapes C0, C1 and DEL only: bidi marks and other scripts are a person's text.
func TestControlHex(t *testing.T) {
	for in, want := range map[string]string{
		"plain":            "plain",
		"a\x1b[31mb\x7f\n": `a\x1b[31mb\x7f\x0a`,
		"c\u0085d":         `c\x85d`,
		"שלום \u202e ok é": "שלום \u202e ok é",
	} {
		if got := ControlHex(in); got != want {
			t.Errorf("ControlHex(%q) = %q, want %q", in, got, want)
		}
	}
}
