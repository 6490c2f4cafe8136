// Package escape makes untrusted text inert for where okf prints it: one line of a terminal or
// CI log (Control, LineStart), JSON printed to a log (JSONLog, EncodeJSONLog) and Markdown
// (Markdown, MarkdownCode). It is a leaf: okf/ and every command import it, and it imports nothing
// of the module, so the one escaping of each kind of output is shared by all of them.
package escape

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Everything okf prints about a bundle (paths, titles, messages, echoed source lines) was written by
// whoever wrote the bundle, and lands in terminals, CI logs, annotations and PR comments. These
// functions are the one place that makes such text inert for each kind of output.

// Control makes untrusted text safe to print on one line of a terminal or CI log: C0 and C1
// control characters (newline, carriage return, ESC, …), DEL, Unicode bidirectional overrides and
// isolates, line and paragraph separators, and invalid UTF-8 are written as visible escapes (`\n`,
// `\x1b`, `\u202e`), so no bundle text can start a new output line (a forged `::error` workflow
// command) or move the cursor. The `[` of `##[` is written `\x5b`: the GitHub Actions runner reads
// `##[error]…` anywhere in a log line as a (legacy) workflow command. A backslash is left as it is:
// text with neither is returned unchanged, byte for byte.
func Control(s string) string { return escapeControl(s, true) }

// escapeControl is Control; commands says whether `##[` is escaped too (Markdown needs
// not: it escapes every `#` and `[` itself).
func escapeControl(s string, commands bool) string {
	i := firstUnsafe(s, commands)
	if i < 0 {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 8)
	b.WriteString(s[:i])
	for i < len(s) {
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size <= 1 {
			fmt.Fprintf(&b, `\x%02x`, s[i])
			i++
			continue
		}
		if unsafeRune(r) {
			writeRuneEscape(&b, r)
		} else if commands && r == '[' && i >= 2 && s[i-1] == '#' && s[i-2] == '#' {
			b.WriteString(`\x5b`) // ##[ is a legacy workflow command anywhere in a line
		} else {
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	return b.String()
}

// firstUnsafe returns the byte offset of the first rune Control would change, or -1.
func firstUnsafe(s string, commands bool) int {
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c < 0x20 || c == 0x7f || (commands && c == '[' && i >= 2 && s[i-1] == '#' && s[i-2] == '#') {
				return i
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if (r == utf8.RuneError && size <= 1) || unsafeRune(r) {
			return i
		}
		i += size
	}
	return -1
}

// unsafeRune reports the runes that control a terminal or reorder text: C0, DEL, C1, the bidi
// embeddings, overrides and isolates, the directional marks, and the line and paragraph separators.
func unsafeRune(r rune) bool {
	switch {
	case r < 0x20, r == 0x7f, r >= 0x80 && r <= 0x9f:
		return true
	case r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069:
		return true
	case r == 0x200e, r == 0x200f, r == 0x061c, r == 0x2028, r == 0x2029:
		return true
	}
	return false
}

func writeRuneEscape(b *strings.Builder, r rune) {
	switch r {
	case '\n':
		b.WriteString(`\n`)
	case '\r':
		b.WriteString(`\r`)
	case '\t':
		b.WriteString(`\t`)
	default:
		if r < 0x100 {
			fmt.Fprintf(b, `\x%02x`, r)
		} else {
			fmt.Fprintf(b, `\u%04x`, r)
		}
	}
}

// LineStart is Control for text that begins an output line, such as the path at the
// head of a finding. In addition, a `:` that would be the line's first character after white space
// is written `\x3a`: the GitHub Actions runner reads a line that starts with `::` after leading
// white space as a workflow command (`::error file=…::`), and a path may start with a colon.
func LineStart(s string) string {
	s = Control(s)
	t := strings.TrimLeftFunc(s, unicode.IsSpace)
	if strings.HasPrefix(t, ":") {
		return s[:len(s)-len(t)] + `\x3a` + t[1:]
	}
	return s
}

// JSONLog is the one escaping path for JSON okf prints or writes (lint's json and sarif,
// trust's json, attest's json and receipts, baselines): it makes JSON text safe to print to a
// terminal or CI log while it stays the same JSON, every value decoding exactly as before. Inside
// strings, every rune Control escapes that the encoder left raw (DEL, C1 controls, bidi
// embeddings, overrides, isolates and marks, line and paragraph separators, any C0 control) is
// written as a \uXXXX escape, invalid UTF-8 as \ufffd (what a decoder reads it as), and the `[`
// of every `##[` as \u005b, so the GitHub Actions runner, which reads `##[command]` anywhere in a
// log line, finds none. Those runes can only occur inside strings of valid JSON, so the bytes
// between tokens (tab, line feed, carriage return, ASCII) are left alone. No line of JSON can start
// with `::`: a line break only occurs between tokens, and no token starts with a colon. A chunk
// of a document cut between tokens (a streamed report) may be escaped on its own. Text with
// nothing to escape is returned as it is.
func JSONLog(b []byte) []byte {
	i := firstJSONUnsafe(b)
	if i < 0 {
		return b
	}
	out := make([]byte, 0, len(b)+16)
	out = append(out, b[:i]...)
	for i < len(b) {
		c := b[i]
		if c < utf8.RuneSelf {
			switch {
			case c == '\t' || c == '\n' || c == '\r':
				out = append(out, c)
			case c < 0x20 || c == 0x7f:
				out = fmt.Appendf(out, `\u%04x`, c)
			case c == '[' && i >= 2 && b[i-1] == '#' && b[i-2] == '#':
				out = append(out, `\u005b`...)
			default:
				out = append(out, c)
			}
			i++
			continue
		}
		r, size := utf8.DecodeRune(b[i:])
		switch {
		case r == utf8.RuneError && size <= 1:
			out = append(out, `\ufffd`...)
		case unsafeRune(r):
			out = fmt.Appendf(out, `\u%04x`, r)
		default:
			out = append(out, b[i:i+size]...)
		}
		i += size
	}
	return out
}

// firstJSONUnsafe returns the offset of the first byte JSONLog would change, or -1.
func firstJSONUnsafe(b []byte) int {
	for i := 0; i < len(b); {
		c := b[i]
		if c < utf8.RuneSelf {
			if (c < 0x20 && c != '\t' && c != '\n' && c != '\r') || c == 0x7f || (c == '[' && i >= 2 && b[i-1] == '#' && b[i-2] == '#') {
				return i
			}
			i++
			continue
		}
		r, size := utf8.DecodeRune(b[i:])
		if (r == utf8.RuneError && size <= 1) || unsafeRune(r) {
			return i
		}
		i += size
	}
	return -1
}

// EncodeJSONLog writes v to w as JSON through JSONLog, in one write: indented by indent
// (compact when empty), ending in a line feed, with <, > and & left as they are (escapeHTML false)
// or written \u003c, \u003e, \u0026. It is how okf prints a whole JSON value.
func EncodeJSONLog(w io.Writer, v any, indent string, escapeHTML bool) error {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	if indent != "" {
		enc.SetIndent("", indent)
	}
	enc.SetEscapeHTML(escapeHTML)
	if err := enc.Encode(v); err != nil {
		return err
	}
	_, err := w.Write(JSONLog(buf.Bytes()))
	return err
}

// Markdown makes untrusted text literal inside a line of Markdown (a table cell, a list item,
// a heading) as GitHub renders it: control characters are escaped as by Control, every
// ASCII punctuation character that Markdown or GFM could read as syntax is backslash-escaped, and
// `<`, `>` and `&` become HTML entities, so a title can open no link or image, start no HTML tag
// (no closing `</details>`), break no table (`|`), and mention no one (`@` is escaped too).
func Markdown(s string) string {
	s = escapeControl(s, false)
	var b strings.Builder
	b.Grow(len(s) + 8)
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch c {
		case '<':
			b.WriteString("&lt;")
		case '>':
			b.WriteString("&gt;")
		case '&':
			b.WriteString("&amp;")
		case '\\', '`', '*', '_', '{', '}', '[', ']', '(', ')', '#', '+', '-', '.', '!', '|', '~', '@', ':', '"', '\'', '=', '$', '%', '^':
			b.WriteByte('\\')
			b.WriteByte(c)
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

// MarkdownCode returns untrusted text as a Markdown inline code span that no content can close
// early: the fence is one backtick longer than the longest run of backticks in the text. Control
// characters are escaped first. Inside a table cell a `|` still splits the cell in GFM, so it is
// written as `\|`, which GitHub renders as a bare pipe inside code in tables.
func MarkdownCode(s string) string {
	s = Control(s)
	longest, run := 0, 0
	for i := 0; i < len(s); i++ {
		if s[i] == '`' {
			run++
			if run > longest {
				longest = run
			}
		} else {
			run = 0
		}
	}
	s = strings.ReplaceAll(s, "|", `\|`)
	fence := strings.Repeat("`", longest+1)
	if strings.HasPrefix(s, "`") || strings.HasSuffix(s, "`") || s == "" {
		return fence + " " + s + " " + fence
	}
	return fence + s + fence
}

// AppendJSONString appends s to b quoted as encoding/json (without HTML escaping) writes it, when
// JSONLog leaves the result as it is and s needs no escape but `\"` and `\\`; otherwise it returns
// b unchanged and false, for the caller to encode s with encoding/json and escape with JSONLog.
// A JSON writer whose every string is appended by it may skip JSONLog over the text it builds
// around them: field names, numbers and the white space between tokens are never changed by it.
// ASCII text (nearly every finding) is read eight bytes at a time.
func AppendJSONString(b []byte, s string) ([]byte, bool) {
	quotes := false // s holds a `"` or `\`
	for i := 0; i < len(s); {
		if i+8 <= len(s) {
			x := uint64(s[i]) | uint64(s[i+1])<<8 | uint64(s[i+2])<<16 | uint64(s[i+3])<<24 |
				uint64(s[i+4])<<32 | uint64(s[i+5])<<40 | uint64(s[i+6])<<48 | uint64(s[i+7])<<56
			if x&hi8 == 0 && !lessThan(x, 0x20) && !hasByte(x, '"') && !hasByte(x, '\\') && !hasByte(x, 0x7f) {
				i += 8
				continue
			}
		}
		// A word holding something else (a `§` in a message) is read rune by rune until it is passed.
		c := s[i]
		if c < utf8.RuneSelf {
			switch {
			case c < 0x20 || c == 0x7f:
				return b, false
			case c == '"' || c == '\\':
				quotes = true
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size <= 1 || unsafeRune(r) {
			return b, false
		}
		i += size
	}
	if strings.Contains(s, "##[") {
		return b, false
	}
	b = append(b, '"')
	if !quotes {
		b = append(b, s...)
		return append(b, '"'), true
	}
	for {
		k := strings.IndexAny(s, `"\`)
		if k < 0 {
			break
		}
		b = append(b, s[:k]...)
		b = append(b, '\\', s[k])
		s = s[k+1:]
	}
	b = append(b, s...)
	return append(b, '"'), true
}

const (
	lo8 = 0x0101010101010101
	hi8 = 0x8080808080808080
)

// lessThan reports whether a byte of x is below n (n ≤ 128, no byte of x above 127).
func lessThan(x uint64, n byte) bool { return (x-lo8*uint64(n))&^x&hi8 != 0 }

// hasByte reports whether a byte of x is c (no byte of x above 127).
func hasByte(x uint64, c byte) bool { return lessThan(x^(lo8*uint64(c)), 1) }

// PercentControls percent-encodes the bytes of each rune Control would escape (a control
// character, line or paragraph separator, bidi control, invalid UTF-8 byte): how a link
// destination or URL built from a bundle's names is kept on one line and in order.
func PercentControls(s string) string {
	if Control(s) == s {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		if chunk := s[i : i+size]; (r == utf8.RuneError && size <= 1) || Control(chunk) != chunk {
			for j := 0; j < size; j++ {
				b.WriteByte('%')
				b.WriteByte("0123456789ABCDEF"[s[i+j]>>4])
				b.WriteByte("0123456789ABCDEF"[s[i+j]&15])
			}
		} else {
			b.WriteString(chunk)
		}
		i += size
	}
	return b.String()
}

// MaxShown is how many bytes of one value a message repeats. A person may write a value of
// megabytes (a title, a tag string, a link target as long as the line, a log heading), and a
// message that quoted it whole was as long, printed again by every format and every editor hover;
// a reader needs only enough of it to recognise it beside the position.
const MaxShown = 256

// Clip returns the first MaxShown bytes of s, cut at a rune's start, and whether s was longer.
func Clip(s string) (string, bool) {
	if len(s) <= MaxShown {
		return s, false
	}
	n := MaxShown
	for n > MaxShown-utf8.UTFMax && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n], true
}

// Quote is strconv.Quote of a value a message repeats: a value longer than MaxShown is quoted
// clipped, with "…" after the closing quote, so the cut is plain and what is quoted is still the
// value's own text.
func Quote(s string) string {
	if head, cut := Clip(s); cut {
		return strconv.Quote(head) + "…"
	}
	return strconv.Quote(s)
}

// Shown is s, or its first MaxShown bytes followed by "…" when it is longer (Clip): a value a
// report repeats unquoted, such as a title in a table.
func Shown(s string) string {
	if head, cut := Clip(s); cut {
		return head + "…"
	}
	return s
}

// ControlHex writes the C0 and C1 control characters and DEL of s as \xNN (YAML's "\e" is an
// ESC), and nothing else: for text okf writes into a bundle file (an index entry, a generated
// concept), where a raw one would move the cursor, colour or link (OSC 8) the terminal of whoever
// runs cat or git diff on it, while a script's own characters, right-to-left text included, are
// the person's to keep. okf index, okf gen and okf lint --fix write entries through it alike.
func ControlHex(s string) string {
	i := strings.IndexFunc(s, isC0C1)
	if i < 0 {
		return s
	}
	var b strings.Builder
	b.WriteString(s[:i])
	for _, r := range s[i:] {
		if isC0C1(r) {
			fmt.Fprintf(&b, `\x%02x`, r)
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

func isC0C1(r rune) bool { return r < 0x20 || r == 0x7f || r >= 0x80 && r <= 0x9f }
