package okf

import (
	"strconv"
	"strings"
	"unicode"
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
// with it that a path it writes reads back as itself. One pass, as CommonMark's reference
// implementation reads it: an escaped `&` starts no reference. Renderers differ there: goldmark
// (three passes) and cmark-gfm, GitHub's (references first, then escapes), read `\&amp;` as `&`;
// okf's own writers never write a `\` in a destination, so what they write reads the same in all.
// Linear in s.
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
func isASCIIAlnum(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

var (
	destEscaper = strings.NewReplacer("%", "%25", "#", "%23", "?", "%3F")
	angleEscape = strings.NewReplacer("<", "%3C", ">", "%3E")
)

// LinkDestination is how a link to the bundle file at the slash path p is written so that
// ResolveLink reads it back as p: `%`, `#` and `?` percent-encoded (resolving strips a fragment
// and a query and decodes escapes), and so are a `\`, an `&` that would start a character
// reference, a control character, line or paragraph separator, bidi control or invalid UTF-8 byte
// (a name from the bundle cannot start a line of the file or reorder it) and white space at either
// end; "./" goes before a name a browser would read as a URL's scheme, and the whole is in angle
// brackets when it holds a space or parenthesis. okf index, okf gen, okf lint's fixes and their
// advice write paths with it, so what they suggest is what they write.
func LinkDestination(p string) string {
	d := escape.PercentControls(destEscaper.Replace(p))
	d = percentEdgeSpace(d) // a renderer may trim the destination's ends
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
	if schemeLike(d) { // a first name with a colon ("c:x.md") is a URL's scheme to a browser
		d = "./" + d
	}
	if angle {
		return "<" + d + ">"
	}
	return d
}

// schemeLike reports whether s begins as a URL with a scheme would (a letter, then letters, digits,
// `+`, `-` or `.`, then `:`), even a one-letter one: IsURL takes those for Windows drives when it
// reads a path, but a browser resolving an href reads `c:x.md` as the scheme c.
func schemeLike(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == ':':
			return i > 0
		case c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z':
		case i > 0 && (c >= '0' && c <= '9' || c == '+' || c == '-' || c == '.'):
		default:
			return false
		}
	}
	return false
}

// edgeSpace is what some renderer trims at the ends of a destination: Unicode white space, and the
// byte order mark (JavaScript's trim, which markdown-it uses).
func edgeSpace(r rune) bool { return unicode.IsSpace(r) || r == '\uFEFF' }

// percentEdgeSpace percent-encodes the white space that begins or ends s.
func percentEdgeSpace(s string) string {
	core := strings.TrimFunc(s, edgeSpace)
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

// asciiSpace is the white space that ends a link destination and that renderers trim: ASCII only
// (a no-break space is part of the name).
const asciiSpace = " \t\n\v\f\r"

// SplitLinkDestination reads a link destination as written (DecodeLinkDestination) and splits it
// where a renderer's href splits: the path, the query (after the first `?` before any `#`) and the
// fragment (after the first `#`), each without its mark and with percent-escapes as written. A
// fragment written `#sec\_1` or a path written `b&#38;c.md` is what a browser sees (`sec_1`,
// `b&c.md`); reading the text as written took `38;c.md` for a fragment.
func SplitLinkDestination(target string) (path, query, fragment string) {
	return splitDecoded(DecodeLinkDestination(strings.Trim(target, asciiSpace)))
}

func splitDecoded(t string) (path, query, fragment string) {
	if i := strings.IndexByte(t, '#'); i >= 0 {
		t, fragment = t[:i], t[i+1:]
	}
	if i := strings.IndexByte(t, '?'); i >= 0 {
		t, query = t[:i], t[i+1:]
	}
	return t, query, fragment
}

// percentDecode decodes each valid `%XX` and keeps any other `%` as it is, as a browser does
// (url.PathUnescape refuses the whole text for one `%zz`, which left `a%20b%zz.md` undecoded).
func percentDecode(s string) string {
	i := strings.IndexByte(s, '%')
	if i < 0 {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	b.WriteString(s[:i])
	for ; i < len(s); i++ {
		if s[i] == '%' && i+2 < len(s) && isHex(s[i+1]) && isHex(s[i+2]) {
			b.WriteByte(unhex(s[i+1])<<4 | unhex(s[i+2]))
			i += 2
			continue
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

func isHex(c byte) bool { return isDigitIn(c, 16) }

func unhex(c byte) byte {
	switch {
	case c >= '0' && c <= '9':
		return c - '0'
	case c >= 'a' && c <= 'f':
		return c - 'a' + 10
	}
	return c - 'A' + 10
}
