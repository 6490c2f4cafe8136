package generate

import (
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// StripMDX turns an MDX (or Markdown) post body into plain Markdown prose: `import`/`export`
// statements, fenced code blocks, `$$…$$` math, HTML comments, MDX `{/* */}` comments and JSX or
// HTML tags are removed, while the text children of JSX elements are kept. When mdx is true, MDX
// `{expressions}` in the text are removed as well (in plain Markdown braces are text). Runs of blank
// lines left behind collapse to one. Lines end at \n, \r\n or a lone \r (old Mac files).
func StripMDX(body string, mdx bool) string {
	lines := strings.Split(strings.ReplaceAll(strings.ReplaceAll(body, "\r\n", "\n"), "\r", "\n"), "\n")
	var out []string
	var fence string // the opening fence while inside a fenced block
	inMath := false
	depth := 0 // brace depth of an import/export statement spanning lines
	inStmt := false
	admonitions := 0 // open :::note … ::: containers
	inAlert := false // inside a > [!NOTE] blockquote
	for _, line := range lines {
		trim := strings.TrimSpace(line)
		if inAlert {
			if strings.HasPrefix(trim, ">") {
				continue
			}
			inAlert = false
		}
		switch {
		case fence != "":
			if closesFence(trim, fence) {
				fence = ""
			}
			continue
		case inMath:
			if strings.HasSuffix(trim, "$$") {
				inMath = false
			}
			continue
		case inStmt:
			depth += braceDelta(line)
			if depth <= 0 {
				inStmt = false
			}
			continue
		}
		if f := openingFence(line); f != "" {
			fence = f
			continue
		}
		// Admonitions (:::note … :::) and alerts (> [!NOTE]) are callouts, not the post's prose:
		// they are dropped whole. A container may nest others with more colons.
		if isAdmonitionOpen(trim) {
			admonitions++
			continue
		}
		if admonitions > 0 {
			if isAdmonitionClose(trim) {
				admonitions--
			}
			continue
		}
		if isAlert(line) {
			inAlert = true
			continue
		}
		if strings.HasPrefix(trim, "$$") {
			if trim == "$$" || !strings.HasSuffix(trim[2:], "$$") {
				inMath = true
			}
			continue
		}
		if mdx && isStatement(line) {
			if d := braceDelta(line); d > 0 {
				depth, inStmt = d, true
			}
			continue
		}
		out = append(out, line)
	}
	text := strings.Join(out, "\n")
	text = stripComments(text)
	text = stripShortcodes(text)
	text = stripTemplates(text)
	text = stripCallouts(text)
	text = stripTags(text, mdx)
	// Collapse the blank lines removals leave behind, and trailing spaces.
	lines = strings.Split(text, "\n")
	out = out[:0]
	blank := true
	for _, line := range lines {
		line = strings.TrimRightFunc(line, unicode.IsSpace)
		if strings.TrimSpace(line) == "" {
			if !blank {
				out = append(out, "")
			}
			blank = true
			continue
		}
		blank = false
		out = append(out, line)
	}
	return strings.TrimSpace(strings.Join(out, "\n"))
}

// openingFence returns the fence characters (``` or ~~~, three or more) that open a code block on
// this line, or "" when the line does not open one. Up to three spaces of indentation are allowed
// (CommonMark).
func openingFence(line string) string {
	indent := len(line) - len(strings.TrimLeft(line, " "))
	if indent > 3 {
		return ""
	}
	s := line[indent:]
	for _, c := range []byte{'`', '~'} {
		n := 0
		for n < len(s) && s[n] == c {
			n++
		}
		if n >= 3 {
			if c == '`' && strings.ContainsRune(s[n:], '`') {
				return "" // an inline code span, not a fence
			}
			return s[:n]
		}
	}
	return ""
}

// closesFence reports whether a trimmed line closes the block opened by fence: the same character,
// at least as many, and nothing else.
func closesFence(trim, fence string) bool {
	if len(trim) < len(fence) || trim[0] != fence[0] {
		return false
	}
	return strings.Trim(trim, fence[:1]) == ""
}

var (
	// Callout components in any case, custom elements named after them (<callout-info>), and
	// <script>/<style> blocks (VitePress's <script setup>): none is prose.
	calloutOpenRE = &lazyRegexp{Expr: `<((?i:details|callout|admonition|aside|note|tip|info|warning|caution|danger|alert|script|style)(?:-[A-Za-z0-9-]+)?)(\s[^<>]*)?>`}
)

// stripCallouts removes <details> blocks and callout components (<Callout>, <Admonition>, <Aside>,
// <Note>, …) with everything inside them: asides are not the post's own prose. An opening tag
// without its closing tag is left for stripTags, and so are later opening tags of its name. The
// tags of each name are found in one pass before (calloutTags), so that an opening tag finds its
// closing tag without searching the rest of the post: the work stays linear even when every
// opening tag has a name of its own (<note-1><note-2>…).
func stripCallouts(s string) string {
	if !strings.Contains(s, "<") {
		return s
	}
	tags := calloutTags(s)
	noClose := map[string]bool{}
	var b strings.Builder
	off := 0 // s[off:] is what is left
	for {
		loc := calloutOpenRE.Get().FindStringSubmatchIndex(s[off:])
		if loc == nil {
			break
		}
		for k := range loc {
			loc[k] += off
		}
		name := s[loc[2]:loc[3]]
		if strings.HasSuffix(strings.TrimSpace(s[loc[0]:loc[1]-1]), "/") || noClose[name] {
			b.WriteString(s[off:loc[1]])
			off = loc[1]
			continue
		}
		end := tags[name].closeAfter(loc[1])
		if end < 0 {
			noClose[name] = true
			b.WriteString(s[off:loc[1]])
			off = loc[1]
			continue
		}
		b.WriteString(s[off:loc[0]])
		b.WriteString("\n\n")
		off = end + len("</"+name+">")
	}
	b.WriteString(s[off:])
	return b.String()
}

// tagPositions are where the tags of one callout name are: opening tags (<name> or <name …,
// a space after the name) and closing tags (</name>), in increasing order.
type tagPositions struct{ opens, closes []int }

// closeAfter returns where the closing tag that balances an opening tag ending at from starts,
// or -1: the first closing tag by which as many tags have closed as have opened since from.
func (t *tagPositions) closeAfter(from int) int {
	if t == nil {
		return -1
	}
	o, _ := slices.BinarySearch(t.opens, from)
	c, _ := slices.BinarySearch(t.closes, from)
	depth := 1
	for ; c < len(t.closes); c++ {
		if countWork != nil {
			*countWork++
		}
		for o < len(t.opens) && t.opens[o] < t.closes[c] {
			depth++
			o++
		}
		if depth--; depth == 0 {
			return t.closes[c]
		}
	}
	return -1
}

// calloutTags finds, in one pass, the opening and closing tags of every name calloutOpenRE may
// match: the tags an opening tag's search for its closing tag counts.
func calloutTags(s string) map[string]*tagPositions {
	tags := map[string]*tagPositions{}
	for i := 0; ; {
		j := strings.IndexByte(s[i:], '<')
		if j < 0 {
			if countWork != nil {
				*countWork += len(s) - i
			}
			break
		}
		if countWork != nil {
			*countWork += j + 1
		}
		i += j + 1
		closing := i < len(s) && s[i] == '/'
		start := i
		if closing {
			start++
		}
		end := start
		for end < len(s) {
			if c := s[end]; c == '-' || c >= '0' && c <= '9' || c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' {
				end++
			} else if strings.HasPrefix(s[end:], "\u017f") { // ſ and K: (?i) folds them to s and k
				end += len("\u017f")
			} else if strings.HasPrefix(s[end:], "\u212a") {
				end += len("\u212a")
			} else {
				break
			}
		}
		if countWork != nil {
			*countWork += end - i
		}
		if end == start || end == len(s) || !(s[end] == '>' || !closing && s[end] == ' ') {
			continue
		}
		name := s[start:end]
		if !isCalloutName(name) {
			continue
		}
		t := tags[name]
		if t == nil {
			t = &tagPositions{}
			tags[name] = t
		}
		if closing {
			t.closes = append(t.closes, i-1)
		} else {
			t.opens = append(t.opens, i-1)
		}
		i = end
	}
	return tags
}

// calloutNameRE is a whole name calloutOpenRE matches.
var calloutNameRE = &lazyRegexp{Expr: `^(?i:details|callout|admonition|aside|note|tip|info|warning|caution|danger|alert|script|style)(?:-[A-Za-z0-9-]+)?$`}

// calloutNames are the names of calloutOpenRE, in lower case, for isCalloutName's ASCII path.
var calloutNames = []string{"details", "callout", "admonition", "aside", "note", "tip", "info", "warning", "caution", "danger", "alert", "script", "style"}

// isCalloutName reports whether calloutNameRE matches name, without a regular expression for
// ASCII names (every '<' of a post is asked).
func isCalloutName(name string) bool {
	for i := range len(name) {
		if name[i] >= utf8.RuneSelf {
			return calloutNameRE.Get().MatchString(name)
		}
	}
	for _, base := range calloutNames {
		if len(name) >= len(base) && strings.EqualFold(name[:len(base)], base) {
			rest := name[len(base):]
			return rest == "" || len(rest) > 1 && rest[0] == '-'
		}
	}
	return false
}

// countWork, when set (by a test), adds up the bytes and steps of stripCallouts and FirstSentence.
var countWork *int

var (
	shortcodeRE       = &lazyRegexp{Expr: `\{\{[<%]\s*(/?)\s*([A-Za-z][\w-]*)[^{}]*?[%>]\}\}`}
	calloutShortcodes = map[string]bool{"notice": true, "alert": true, "callout": true, "admonition": true, "details": true,
		"hint": true, "tip": true, "note": true, "warning": true, "info": true, "aside": true,
		"highlight": true} // code, not prose
)

// stripShortcodes removes Hugo shortcodes ({{< figure … >}}, {{% notice %}} … {{% /notice %}}):
// the tags always, and the content of the callout ones (notice, alert, details, …) too.
func stripShortcodes(s string) string {
	if !strings.Contains(s, "{{") {
		return s
	}
	var b strings.Builder
	skipping := "" // the callout shortcode whose content is being dropped
	depth := 0
	last := 0
	for _, m := range shortcodeRE.Get().FindAllStringSubmatchIndex(s, -1) {
		closing, name := s[m[2]:m[3]] == "/", s[m[4]:m[5]]
		if skipping == "" {
			b.WriteString(s[last:m[0]])
			if !closing && calloutShortcodes[name] {
				skipping, depth = name, 1
			}
		} else if name == skipping {
			if closing {
				depth--
			} else {
				depth++
			}
			if depth == 0 {
				skipping = ""
			}
		}
		last = m[1]
	}
	if skipping == "" {
		b.WriteString(s[last:])
	}
	return b.String()
}

// braceDelta counts how many more {, ( and [ than closers a line has, ignoring quoted strings, so a
// statement that opens a block on one line is followed to its end.
func braceDelta(line string) int {
	d := 0
	var quote rune
	for _, r := range line {
		switch {
		case quote != 0:
			if r == quote {
				quote = 0
			}
		case r == '\'' || r == '"' || r == '`':
			quote = r
		case r == '{' || r == '(' || r == '[':
			d++
		case r == '}' || r == ')' || r == ']':
			d--
		}
	}
	return d
}

// stripComments removes HTML comments and MDX comments ({/* … */}), which may span lines.
func stripComments(s string) string {
	for _, pair := range [][2]string{{"<!--", "-->"}, {"{/*", "*/}"}} {
		var b strings.Builder
		for {
			i := strings.Index(s, pair[0])
			if i < 0 {
				break
			}
			b.WriteString(s[:i])
			j := strings.Index(s[i+len(pair[0]):], pair[1])
			if j < 0 {
				s = "" // an unclosed comment hides the rest, as a browser would
				break
			}
			s = s[i+len(pair[0])+j+len(pair[1]):]
		}
		b.WriteString(s)
		s = b.String()
	}
	return s
}

// boundedScan bounds the searches of stripTags and stripTemplates for what closes a code span, a
// tag, an expression, a template tag or inline math: each reads at most maxScan bytes ahead, and
// failed searches may read at most budget bytes in all (16 times the input, plus maxScan). Past
// that, what is left is kept as text: the work stays linear in the input even when every '<', '{'
// or '`' of a hostile post opens something that never closes.
type boundedScan struct {
	s               string
	maxScan, budget int
}

func newBoundedScan(s string, maxScan int) *boundedScan {
	return &boundedScan{s: s, maxScan: maxScan, budget: 16*len(s) + maxScan}
}

// window is what a search from from may read; "" once the budget is spent.
func (sc *boundedScan) window(from int) string {
	n := min(sc.maxScan, sc.budget)
	if n <= 0 || from > len(sc.s) {
		return ""
	}
	return sc.s[from:min(len(sc.s), from+n)]
}

// spend charges a failed search for the window it read.
func (sc *boundedScan) spend(w string) { sc.budget -= len(w) }

// find is the position of needle in the window from from, or -1 (the window spent).
func (sc *boundedScan) find(from int, needle string) int {
	w := sc.window(from)
	if j := strings.Index(w, needle); j >= 0 {
		return from + j
	}
	sc.spend(w)
	return -1
}

// codeSpan reads the inline code span at s[i], a run of backticks, and returns where it ends:
// after the same run of backticks further on (within the window, before any blank line), or,
// when it does not close, after the run, which is then text. Either way s[i:end] is kept as it
// is: stripTags and stripTemplates leave code alone.
func (sc *boundedScan) codeSpan(i int) (end int) {
	n := 0
	for i+n < len(sc.s) && sc.s[i+n] == '`' {
		n++
	}
	w := sc.window(i + n)
	if j := strings.Index(w, sc.s[i:i+n]); j >= 0 && !strings.Contains(w[:j], "\n\n") {
		return i + n + j + n
	}
	sc.spend(w)
	return i + n
}

// textRun is the end of the plain text from s[i]: the next byte that may start something
// (special), or the end.
func textRun(s string, i int, special *[256]bool) int {
	for i++; i < len(s) && !special[s[i]]; i++ {
	}
	return i
}

var tagSpecials, tagSpecialsMDX = specials("`\\$<"), specials("`\\$<{")

func specials(chars string) *[256]bool {
	var set [256]bool
	for i := range len(chars) {
		set[chars[i]] = true
	}
	return &set
}

// stripTags removes JSX and HTML tags (opening, closing, self-closing, fragments) and inline
// `$$…$$` math, keeping the text between tags and leaving inline code spans untouched. Autolinks
// (<https://…>) keep their address. With mdx, `{expressions}` are removed too. Its searches are
// bounded (boundedScan, 64 KiB ahead).
func stripTags(s string, mdx bool) string {
	sc := newBoundedScan(s, 1<<16)
	special := tagSpecials
	if mdx {
		special = tagSpecialsMDX
	}
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == '`':
			end := sc.codeSpan(i)
			b.WriteString(s[i:end])
			i = end
			continue
		case c == '\\' && i+1 < len(s):
			b.WriteString(s[i : i+2])
			i += 2
			continue
		case c == '$' && strings.HasPrefix(s[i:], "$$"):
			if j := sc.find(i+2, "$$"); j >= 0 {
				i = j + 2
				continue
			}
		case c == '<':
			w := sc.window(i)
			if w == "" {
				break
			}
			if end, keep, ok := tagAt(w); ok {
				b.WriteString(keep)
				i += end
				continue
			}
			sc.spend(w)
		case c == '{' && mdx:
			w := sc.window(i)
			if w == "" {
				break
			}
			if end := matchBrace(w); end > 0 {
				i += end
				continue
			}
			sc.spend(w)
		}
		j := textRun(s, i, special)
		b.WriteString(s[i:j])
		i = j
	}
	return b.String()
}

var autolinkRE = &lazyRegexp{Expr: `^<([A-Za-z][A-Za-z0-9+.-]{1,31}:[^\s<>]*|[^\s<>@]+@[^\s<>@]+)>`}

// tagAt reads a tag at the start of s. It returns the tag's length and the text to keep in its place
// (the address of an autolink, nothing for a tag). ok is false when s does not start a tag ("a < b").
func tagAt(s string) (end int, keep string, ok bool) {
	if m := autolinkRE.Get().FindStringSubmatch(s); m != nil {
		return len(m[0]), m[1], true
	}
	i := 1
	if i < len(s) && s[i] == '/' {
		i++
	}
	if i < len(s) && s[i] == '>' { // a fragment <> or </>
		return i + 1, "", true
	}
	r, _ := utf8.DecodeRuneInString(s[i:])
	if !unicode.IsLetter(r) {
		return 0, "", false
	}
	var quote byte
	depth := 0
	for ; i < len(s); i++ {
		c := s[i]
		switch {
		case quote != 0:
			if c == quote {
				quote = 0
			}
		case c == '"' || c == '\'':
			quote = c
		case c == '{':
			depth++
		case c == '}':
			depth--
		case c == '>' && depth <= 0:
			return i + 1, "", true
		}
	}
	return 0, "", false
}

// matchBrace returns the length of the balanced {…} expression at the start of s, or 0 when it
// does not close.
func matchBrace(s string) int {
	depth := 0
	var quote byte
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case quote != 0:
			if c == quote {
				quote = 0
			}
		case c == '"' || c == '\'' || c == '`':
			quote = c
		case c == '{':
			depth++
		case c == '}':
			depth--
			if depth == 0 {
				return i + 1
			}
		}
	}
	return 0
}
