package okf

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/okf-tools/okf/internal/escape"
	"github.com/okf-tools/okf/internal/textdiff"
	"go.yaml.in/yaml/v3"
)

// Edit replaces the bytes [Start, End) of one file's text with New: the unit of every rewrite okf
// makes to a bundle (okf migrate, okf lint --fix). Edits are made at positions the parser gave, so
// that everything around them (key order, comments, quoting, unknown keys) stays byte for byte.
type Edit struct {
	Start, End int
	New        string
}

// ApplyEdits returns src with edits applied. Edits may come in any order; two that overlap are an
// error (the caller is combining changes it cannot reconcile), and so is one outside src.
func ApplyEdits(src []byte, edits []Edit) ([]byte, error) {
	es := sortEdits(edits)
	var out bytes.Buffer
	out.Grow(len(src))
	last := 0
	for _, e := range es {
		if e.Start < last || e.End < e.Start || e.End > len(src) {
			return nil, fmt.Errorf("edits overlap or fall outside the file (bytes %d-%d)", e.Start, e.End)
		}
		out.Write(src[last:e.Start])
		out.WriteString(e.New)
		last = e.End
	}
	out.Write(src[last:])
	return out.Bytes(), nil
}

func sortEdits(edits []Edit) []Edit {
	es := append([]Edit(nil), edits...)
	sort.SliceStable(es, func(i, j int) bool {
		if es[i].Start != es[j].Start {
			return es[i].Start < es[j].Start
		}
		return es[i].End < es[j].End
	})
	return es
}

// OffsetOf returns the byte offset in src of a 1-based line and rune column (as positions are
// counted), or -1 when src has no such place.
func OffsetOf(src []byte, line, col int) int {
	if line < 1 || col < 1 {
		return -1
	}
	off := 0
	for l := 1; l < line; l++ {
		i := bytes.IndexByte(src[off:], '\n')
		if i < 0 {
			return -1
		}
		off += i + 1
	}
	for c := 1; c < col; c++ {
		if off >= len(src) || src[off] == '\n' {
			return -1
		}
		_, size := utf8.DecodeRune(src[off:])
		off += size
	}
	return off
}

// LineStart returns the offset of the start of the line holding off.
func LineStart(src []byte, off int) int {
	return bytes.LastIndexByte(src[:off], '\n') + 1
}

// LineEnd returns the offset just after the line holding off (after its "\n", or len(src)).
func LineEnd(src []byte, off int) int {
	i := bytes.IndexByte(src[off:], '\n')
	if i < 0 {
		return len(src)
	}
	return off + i + 1
}

// ScalarSpan finds the text of a one-line scalar value v in src, the file it was parsed from: plain,
// 'single' or "double" quoted. quote is the quote character (0 for plain). ok is false when the text
// at v's position is not exactly that scalar (a block scalar, a value spread over lines, an escape
// sequence): a caller that cannot see the value's exact text must not rewrite it.
func ScalarSpan(src []byte, v Value) (start, end int, quote byte, ok bool) {
	if v.Kind != Scalar && v.Kind != Null {
		return 0, 0, 0, false
	}
	off := OffsetOf(src, int(v.Pos.Line), int(v.Pos.Col))
	if off < 0 || off >= len(src) {
		return 0, 0, 0, false
	}
	rest := src[off:]
	switch q := rest[0]; q {
	case '"', '\'':
		if strings.ContainsAny(v.Raw, "\n\r\\\"'") {
			return 0, 0, 0, false
		}
		tok := string(q) + v.Raw + string(q)
		if !bytes.HasPrefix(rest, []byte(tok)) {
			return 0, 0, 0, false
		}
		return off, off + len(tok), q, true
	}
	if v.Raw == "" || strings.ContainsAny(v.Raw, "\n\r") || !bytes.HasPrefix(rest, []byte(v.Raw)) {
		return 0, 0, 0, false
	}
	end = off + len(v.Raw)
	if end < len(src) {
		switch src[end] {
		case '\n', '\r', ' ', '\t', ',', '}', ']':
		default:
			return 0, 0, 0, false
		}
	}
	return off, end, 0, true
}

// KeySpan finds the text of a top-level (or nested) plain key written at pos in src.
func KeySpan(src []byte, pos Position, name string) (start, end int, ok bool) {
	off := OffsetOf(src, int(pos.Line), int(pos.Col))
	if off < 0 || !bytes.HasPrefix(src[off:], []byte(name)) {
		return 0, 0, false
	}
	end = off + len(name)
	if end >= len(src) || (src[end] != ':' && src[end] != ' ' && src[end] != '\t') {
		return 0, 0, false
	}
	return off, end, true
}

// Quote writes text as the value of a scalar in the given quote style ('\”, '"' or 0 for plain),
// falling back to double quotes when the style cannot hold it as the same string.
func Quote(text string, quote byte) string {
	switch quote {
	case '\'':
		if !strings.ContainsAny(text, "'\n\r") {
			return "'" + text + "'"
		}
	case 0:
		if PlainSafe(text) {
			return text
		}
	}
	// A JSON string is a valid YAML double-quoted scalar; & < > stay as they are.
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(text)
	out := strings.TrimSuffix(b.String(), "\n")
	// YAML allows fewer characters raw than JSON does (DEL, C1 controls, U+FFFE/U+FFFF): escape them.
	if strings.IndexFunc(out, notYAMLPrintable) < 0 {
		return out
	}
	var e strings.Builder
	for _, r := range out {
		if notYAMLPrintable(r) {
			fmt.Fprintf(&e, "\\u%04x", r)
			continue
		}
		e.WriteRune(r)
	}
	return e.String()
}

// notYAMLPrintable reports a character YAML 1.2 does not allow unescaped (its c-printable set,
// less the tab and line breaks a one-line scalar cannot hold).
func notYAMLPrintable(r rune) bool {
	switch {
	case r == 0x85:
		return false
	case r < 0x20, r >= 0x7f && r < 0xa0, r >= 0xd800 && r < 0xe000, r == 0xfffe, r == 0xffff:
		return true
	}
	return false
}

// PlainSafe reports whether text, written unquoted as a flow or block value, reads back as the same
// string (not a number, boolean, null, timestamp, comment or structure).
func PlainSafe(text string) bool {
	if text == "" || strings.TrimSpace(text) != text || strings.ContainsAny(text, "\n\r\t") {
		return false
	}
	if plainWord(text) {
		return true
	}
	plainSafeMemo.Lock()
	safe, known := plainSafeMemo.m[text]
	plainSafeMemo.Unlock()
	if known {
		return safe
	}
	safe = plainSafe(text)
	plainSafeMemo.Lock()
	if plainSafeMemo.m == nil {
		plainSafeMemo.m = map[string]bool{}
	}
	if len(plainSafeMemo.m) < maxPlainSafeMemo && len(text) <= maxPlainSafeMemoText {
		plainSafeMemo.m[strings.Clone(text)] = safe // a copy: text may be cut from a larger string
	}
	plainSafeMemo.Unlock()
	return safe
}

// plainWord is a quick yes for the common case, a tag or value that is a word: an ASCII letter, then
// letters, digits, '_' and '-', and not one of the words YAML reads as something else in any
// case (true, yes, on, null, …). Such a text is plain in both contexts, without the memo's lock and
// two YAML parses (TestPlainWordIsPlainSafe checks it against plainSafe).
func plainWord(text string) bool {
	if len(text) > 64 {
		return false
	}
	var low [64]byte
	for i := 0; i < len(text); i++ {
		c := text[i]
		switch {
		case c >= 'a' && c <= 'z':
		case c >= 'A' && c <= 'Z':
			c += 'a' - 'A'
		case i > 0 && (c >= '0' && c <= '9' || c == '_' || c == '-'):
		default:
			return false
		}
		low[i] = c
	}
	switch string(low[:len(text)]) {
	case "y", "n", "yes", "no", "on", "off", "true", "false", "null", "nan", "inf":
		return false
	}
	return true
}

// plainSafeMemo remembers PlainSafe's verdicts: each takes two YAML parses, and the tags a
// bundle's fixes quote repeat from concept to concept (fixing 3,400 concepts' comma-string tags
// spent a fifth of okf lint -f sarif in them). Bound: at most maxPlainSafeMemo texts, each of at
// most maxPlainSafeMemoText bytes (a tag longer than that is checked each time).
var plainSafeMemo struct {
	sync.Mutex
	m map[string]bool
}

const (
	maxPlainSafeMemo     = 1 << 14
	maxPlainSafeMemoText = 256
)

// yaml11Special matches the plain scalars a YAML 1.1 reader (PyYAML, which python-frontmatter
// uses; Go's yaml.v2; Ruby's Psych) resolves to something other than a string, or cannot read:
// the 1.1 booleans (but y and n, which only yaml.v2 reads as booleans), its integers (base 60, underscores, 0b, 0x, a leading 0) and floats, a date
// with one-digit month or day, and "=" and "<<" (its value and merge tags). YAML 1.2 (D3) reads
// most of them as strings; okf writes them quoted, so that every reader reads the string.
var yaml11Special = &lazyRegexp{expr: `^(?:yes|Yes|YES|no|No|NO|true|True|TRUE|false|False|FALSE|on|On|ON|off|Off|OFF|=|<<` +
	`|[-+]?0b[01_]+|[-+]?0[0-7_]+|[-+]?(?:0|[1-9][0-9_]*)|[-+]?0x[0-9a-fA-F_]+|[-+]?[1-9][0-9_]*(?::[0-5]?[0-9])+` +
	`|[-+]?(?:[0-9][0-9_]*)?\.[0-9.]*(?:[eE][-+]?[0-9]+)?|[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+\.[0-9_]*|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN)` +
	`|[0-9]{4}-[0-9]{1,2}-[0-9]{1,2}(?:[Tt ].*)?)$`}

// plainSafe is PlainSafe without the memo.
func plainSafe(text string) bool {
	if yaml11Special.get().MatchString(text) {
		return false
	}
	// Read back in both contexts: a flow list item ([x]) and a block value (k: x) differ (a
	// trailing colon is text in one and a mapping in the other).
	var flow []any
	if err := yaml.Unmarshal([]byte("["+text+"]"), &flow); err != nil || len(flow) != 1 {
		return false
	}
	if s, ok := flow[0].(string); !ok || s != text {
		return false
	}
	var block map[string]any
	if err := yaml.Unmarshal([]byte("k: "+text+"\n"), &block); err != nil || len(block) != 1 {
		return false
	}
	s, ok := block["k"].(string)
	return ok && s == text
}

// DatetimeText is how a date-only or offset-less timestamp is rewritten per D10: the instant okf
// already reads it as (00:00 UTC for a date, UTC for a datetime without offset), in RFC 3339 with
// an explicit Z. ok is false for any other form.
func DatetimeText(ts Timestamp) (string, bool) {
	if ts.Form != DateOnly && ts.Form != NoOffset {
		return "", false
	}
	return ts.Time.UTC().Format(time.RFC3339Nano), true
}

// RetimeEdit rewrites a date-only or offset-less timestamp as a full datetime (D10), keeping its
// quote style. ok is false when the value is another form or its text cannot be found exactly.
func RetimeEdit(src []byte, ts Timestamp) (Edit, bool) {
	text, ok := DatetimeText(ts)
	if !ok {
		return Edit{}, false
	}
	start, end, q, ok := ScalarSpan(src, ts.Value)
	if !ok {
		return Edit{}, false
	}
	if q == 0 {
		return Edit{start, end, text}, true
	}
	return Edit{start, end, string(q) + text + string(q)}, true
}

// TagsFromString reads the list of tags a person meant by writing `tags` as a string (§4.1 wants a
// list). A string that is itself a YAML flow list ("[okf, agent]", quoted so that YAML reads it as
// one string) means its items; a comma-separated string ("sales, orders") its parts, empty parts
// dropped; one word itself. ok is false when the meaning is not mechanical: a flow list that does
// not parse or holds anything but scalars, brackets, braces or quotes anywhere else, or no tag at all.
func TagsFromString(s string) (tags []string, ok bool) {
	t := strings.TrimSpace(s)
	if strings.HasPrefix(t, "[") && strings.HasSuffix(t, "]") {
		var doc yaml.Node
		if err := yaml.Unmarshal([]byte("k: "+t+"\n"), &doc); err != nil || len(doc.Content) != 1 {
			return nil, false
		}
		m := doc.Content[0]
		if m.Kind != yaml.MappingNode || len(m.Content) != 2 || m.Content[1].Kind != yaml.SequenceNode {
			return nil, false
		}
		for _, it := range m.Content[1].Content {
			v := strings.TrimSpace(it.Value)
			if it.Kind != yaml.ScalarNode || it.Alias != nil || v == "" || strings.ContainsAny(v, "[]{}") {
				return nil, false
			}
			tags = append(tags, v)
		}
		return tags, len(tags) > 0
	}
	if strings.ContainsAny(t, "[]{}\"'") {
		return nil, false
	}
	tags = make([]string, 0, strings.Count(t, ",")+1)
	for rest := t; ; {
		p, after, more := strings.Cut(rest, ",")
		if p = strings.TrimSpace(p); p != "" {
			tags = append(tags, p)
		}
		if !more {
			break
		}
		rest = after
	}
	if len(tags) == 0 {
		return nil, false
	}
	return tags, true
}

// FlowList writes items as a YAML flow list, quoting an item only where it must be.
func FlowList(items []string) string {
	n := 2
	for _, it := range items {
		n += len(it) + 2
	}
	var b strings.Builder
	b.Grow(n)
	b.WriteByte('[')
	for i, it := range items {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(Quote(it, 0))
	}
	b.WriteByte(']')
	return b.String()
}

// TagsEdit rewrites `tags` written as a string as the YAML list TagsFromString reads in it
// ("a, b" → [a, b]; "[a, b]" → [a, b]), and proves the rewrite (ProveEdit): tags becomes exactly
// that list of strings and nothing else in the file changes. ok is false when tags is not a one-line
// string, when its text is ambiguous, or when the rewrite cannot be proven.
func TagsEdit(src []byte, tags List) (Edit, bool) {
	if !tags.IsString() {
		return Edit{}, false
	}
	items, ok := TagsFromString(tags.Raw)
	if !ok {
		return Edit{}, false
	}
	start, end, _, ok := ScalarSpan(src, tags.Value)
	if !ok {
		return Edit{}, false
	}
	e := Edit{start, end, FlowList(items)}
	next, err := ApplyEdits(src, []Edit{e})
	if err != nil || ProveEdit(src, next, Change{Path: []string{"tags"}, Value: StrList(items)}) != nil {
		return Edit{}, false
	}
	return e, true
}

// Newline returns the line ending src uses ("\r\n" when its first line ends so, else "\n").
func Newline(src []byte) string {
	if i := bytes.IndexByte(src, '\n'); i > 0 && src[i-1] == '\r' {
		return "\r\n"
	}
	return "\n"
}

// UnifiedDiff renders the change edits make to src as a unified diff of the file at path (a/ and b/
// prefixes, three lines of context), the way `diff -u` and git show it. It is built from the edits
// themselves, so it shows exactly what okf changes.
func UnifiedDiff(path string, src []byte, edits []Edit) string {
	if len(edits) == 0 {
		return ""
	}
	es := sortEdits(edits)
	// Group edits by the lines they touch.
	type group struct {
		from, to int // byte range of whole old lines
		edits    []Edit
	}
	var groups []group
	for _, e := range es {
		from := LineStart(src, e.Start)
		to := e.End
		if to == e.Start || to == 0 || src[to-1] != '\n' {
			to = LineEnd(src, to)
		}
		if to < len(src) && to == from { // an insertion at the start of a line takes that line as context
			to = LineEnd(src, from)
		}
		if n := len(groups); n > 0 && from <= groups[n-1].to {
			groups[n-1].to = max(groups[n-1].to, to)
			groups[n-1].edits = append(groups[n-1].edits, e)
			continue
		}
		groups = append(groups, group{from, to, []Edit{e}})
	}
	lines := textdiff.Lines(src)
	lineOf := func(off int) int { return bytes.Count(src[:off], []byte{'\n'}) } // 0-based
	type hunk struct {
		oldStart  int // 0-based first old line shown
		changeEnd int // 0-based old line after the last change
		body      []string
		added     int
		removed   int
	}
	var hunks []*hunk
	finish := func(h *hunk) {
		for i := h.changeEnd; i < min(len(lines), h.changeEnd+3); i++ {
			h.body = append(h.body, " "+lines[i])
		}
	}
	for _, g := range groups {
		oldFrom, oldTo := lineOf(g.from), lineOf(g.to)
		if g.to == len(src) && len(src) > 0 && src[len(src)-1] != '\n' {
			oldTo = len(lines)
		}
		chunk := src[g.from:g.to]
		local := make([]Edit, len(g.edits))
		for i, e := range g.edits {
			local[i] = Edit{e.Start - g.from, e.End - g.from, e.New}
		}
		newChunk, _ := ApplyEdits(chunk, local)
		var h *hunk
		if n := len(hunks); n > 0 && hunks[n-1].changeEnd+6 >= oldFrom {
			h = hunks[n-1]
			for i := h.changeEnd; i < oldFrom; i++ {
				h.body = append(h.body, " "+lines[i])
			}
		} else {
			if n := len(hunks); n > 0 {
				finish(hunks[n-1])
			}
			ctxFrom := max(0, oldFrom-3)
			h = &hunk{oldStart: ctxFrom}
			hunks = append(hunks, h)
			for i := ctxFrom; i < oldFrom; i++ {
				h.body = append(h.body, " "+lines[i])
			}
		}
		for _, l := range textdiff.Lines(chunk) {
			h.body = append(h.body, "-"+l)
			h.removed++
		}
		for _, l := range textdiff.Lines(newChunk) {
			h.body = append(h.body, "+"+l)
			h.added++
		}
		h.changeEnd = oldTo
	}
	finish(hunks[len(hunks)-1])
	var b strings.Builder
	path = strings.TrimPrefix(path, "/") // an absolute path reads a/tmp/x.md, as git would write it
	// The header is one line whatever the file is named: a line break in a name is written \n
	// (a name is bundle text; the body's lines are escaped by whoever prints the diff).
	path = escape.Control(path)
	fmt.Fprintf(&b, "--- a/%s\n+++ b/%s\n", path, path)
	shift := 0
	for _, h := range hunks {
		ctx := 0
		for _, l := range h.body {
			if l[0] == ' ' {
				ctx++
			}
		}
		oldN, newN := ctx+h.removed, ctx+h.added
		fmt.Fprintf(&b, "@@ -%s +%s @@\n", textdiff.HunkRange(h.oldStart, oldN), textdiff.HunkRange(h.oldStart+shift, newN))
		shift += h.added - h.removed
		for _, l := range h.body {
			b.WriteString(l)
			if !strings.HasSuffix(l, "\n") {
				b.WriteString("\n\\ No newline at end of file\n")
			}
		}
	}
	return b.String()
}
