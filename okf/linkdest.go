package okf

import (
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/okf-tools/okf/internal/escape"
	"github.com/yuin/goldmark/util"
)

// DecodeLinkDestination reads a Markdown link destination as written the way CommonMark does before
// it becomes a URL: a backslash before ASCII punctuation is the punctuation (§2.4), and an entity
// or numeric character reference is its character (§2.5). `[x](a&amp;b.md)` links to the file
// a&b.md in every renderer, so okf resolves it there too; read as written, such a link was broken
// and okf index dropped a hand-written entry so written as a deleted concept's. ResolveLink
// decodes so before it strips a fragment and decodes percent-escapes; a writer of a link checks
// with it that a path it writes reads back as itself. One pass: an escaped `&` starts no
// reference (unlike goldmark's three passes, which decode `\&amp;` to `&`). Linear in s.
func DecodeLinkDestination(s string) string {
	if strings.IndexByte(s, '\\') < 0 && strings.IndexByte(s, '&') < 0 {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); {
		c := s[i]
		if c == '\\' && i+1 < len(s) && util.IsPunct(s[i+1]) {
			b.WriteByte(s[i+1])
			i += 2
			continue
		}
		if c == '&' {
			if r, n := charRef(s[i:]); n > 0 {
				b.WriteString(r)
				i += n
				continue
			}
		}
		b.WriteByte(c)
		i++
	}
	return b.String()
}

// longestEntityName bounds the scan for a named reference: the longest HTML5 entity name
// (CounterClockwiseContourIntegral) has 31 letters.
const longestEntityName = 32

// charRef reads a character reference at the start of s (which starts with '&'): its text and its
// length, or 0 when s starts none.
func charRef(s string) (string, int) {
	if len(s) > 2 && s[1] == '#' {
		digits, base, start := 7, 10, 2
		if s[2] == 'x' || s[2] == 'X' {
			digits, base, start = 6, 16, 3
		}
		end := start
		for end < len(s) && end-start <= digits && isDigitIn(s[end], base) {
			end++
		}
		n := end - start
		if n == 0 || n > digits || end >= len(s) || s[end] != ';' {
			return "", 0
		}
		v, _ := strconv.ParseUint(s[start:end], base, 32)
		r := rune(v)
		if v == 0 || v > utf8.MaxRune || !utf8.ValidRune(r) {
			r = utf8.RuneError
		}
		return string(r), end + 1
	}
	end := 1
	for end < len(s) && end <= longestEntityName && isASCIIAlnum(s[end]) {
		end++
	}
	if end == 1 || end >= len(s) || s[end] != ';' {
		return "", 0
	}
	e, ok := util.LookUpHTML5EntityByName(s[1:end])
	if !ok {
		return "", 0
	}
	return string(e.Characters), end + 1
}

func isDigitIn(c byte, base int) bool {
	if c >= '0' && c <= '9' {
		return true
	}
	return base == 16 && (c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F')
}

// isASCIIAlnum: entity names are ASCII letters and digits.
func isASCIIAlnum(c byte) bool { return c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

var (
	destEscaper = strings.NewReplacer("%", "%25", "#", "%23", "?", "%3F")
	angleEscape = strings.NewReplacer("<", "%3C", ">", "%3E")
)

// LinkDestination is how a link to the bundle file at the slash path p is written so that
// ResolveLink reads it back as p: `%`, `#` and `?` percent-encoded (resolving strips a fragment
// and a query and decodes escapes), a `\`, and an `&` that would start a character reference,
// percent-encoded, a control character, line or paragraph separator, bidi control or
// invalid UTF-8 byte percent-encoded (a name from the bundle cannot start a line of the file or
// reorder it), "./" before a name that would read as a URL, and the whole in angle brackets when it holds a space or parenthesis. okf index,
// okf lint's fixes and their advice write paths with it, so what they suggest is what they write.
func LinkDestination(p string) string {
	d := percentControls(destEscaper.Replace(p))
	d = percentEdgeSpace(d) // ResolveLink trims the target, as a renderer trims the destination
	angle := strings.ContainsAny(d, " ()<>")
	if angle {
		d = angleEscape.Replace(d)
	}
	// Every `\` is encoded (before punctuation it escapes it, and a last one escapes the closing
	// `)` or `>`); an `&` only where it would start a reference.
	d = strings.ReplaceAll(d, `\`, "%5C")
	if DecodeLinkDestination(d) != d {
		d = strings.ReplaceAll(d, "&", "%26")
	}
	if IsURL(d) { // a first name with a colon ("a:b.md") would read as a URL's scheme
		d = "./" + d
	}
	if angle {
		return "<" + d + ">"
	}
	return d
}

// percentControls percent-encodes the bytes of each rune escape.Control would escape.
func percentControls(s string) string {
	if escape.Control(s) == s {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		if chunk := s[i : i+size]; (r == utf8.RuneError && size <= 1) || escape.Control(chunk) != chunk {
			b.WriteString(percentAll(chunk))
		} else {
			b.WriteString(chunk)
		}
		i += size
	}
	return b.String()
}

// percentEdgeSpace percent-encodes the white space that begins or ends s.
func percentEdgeSpace(s string) string {
	core := strings.TrimSpace(s)
	if core == s {
		return s
	}
	i := strings.Index(s, core)
	if core == "" {
		i = len(s)
	}
	return percentAll(s[:i]) + core + percentAll(s[i+len(core):])
}

func percentAll(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		b.WriteByte('%')
		b.WriteByte("0123456789ABCDEF"[s[i]>>4])
		b.WriteByte("0123456789ABCDEF"[s[i]&15])
	}
	return b.String()
}
