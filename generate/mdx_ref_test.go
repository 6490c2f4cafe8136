package generate

import "strings"

// stripTags and stripTemplates as they were before they shared boundedScan and its code span
// reader, kept as the reference FuzzStripMDX compares them with. The one difference is on purpose:
// stripTemplates charged nothing for a code span rejected at a blank line, so a hostile post of
// them read 4 KiB per backtick; it now spends its budget as stripTags always did.

// refStripTags is stripTags before boundedScan: it removes JSX and HTML tags (opening, closing, self-closing, fragments) and inline
// `$$…$$` math, keeping the text between tags and leaving inline code spans untouched. Autolinks
// (<https://…>) keep their address. With mdx, `{expressions}` are removed too.
func refStripTags(s string, mdx bool) string {
	// Bound: a tag, an expression, a code span or inline math is looked for at most maxScan bytes
	// ahead, and failed searches may read at most budget bytes in all (16 times the input, plus
	// 64 KiB). Past that, what is left is kept as text: the work stays linear in the input even when
	// every '<' or '{' of a hostile post opens something that never closes.
	const maxScan = 1 << 16
	budget := 16*len(s) + maxScan
	window := func(from int) string {
		n := min(maxScan, budget)
		if n <= 0 {
			return ""
		}
		return s[from:min(len(s), from+n)]
	}
	spend := func(w string) { budget -= len(w) }
	var b strings.Builder
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == '`':
			n := 0
			for i+n < len(s) && s[i+n] == '`' {
				n++
			}
			ticks := s[i : i+n]
			w := window(i + n)
			if j := strings.Index(w, ticks); j >= 0 && !strings.Contains(w[:j], "\n\n") {
				b.WriteString(s[i : i+n+j+n])
				i += n + j + n
				continue
			}
			spend(w)
			b.WriteString(ticks)
			i += n
			continue
		case c == '\\' && i+1 < len(s):
			b.WriteString(s[i : i+2])
			i += 2
			continue
		case c == '$' && strings.HasPrefix(s[i:], "$$"):
			w := window(i + 2)
			if j := strings.Index(w, "$$"); j >= 0 {
				i += 2 + j + 2
				continue
			}
			spend(w)
		case c == '<':
			w := window(i)
			if w == "" {
				break
			}
			if end, keep, ok := tagAt(w); ok {
				b.WriteString(keep)
				i += end
				continue
			}
			spend(w)
		case c == '{' && mdx:
			w := window(i)
			if w == "" {
				break
			}
			if end := matchBrace(w); end > 0 {
				i += end
				continue
			}
			spend(w)
		}
		b.WriteByte(c)
		i++
	}
	return b.String()
}

// refStripTemplates is stripTemplates before boundedScan: it removes the template and component syntax engines put in Markdown, keeping the
// prose around it: Liquid/Nunjucks tags ({% … %}, with the content of code, comment and callout
// blocks), outputs ({{ … }}) and comments ({# … #}), attribute lists ({#id}, {.class}, {: …},
// Kramdown's {:toc}), and Nuxt MDC inline components (:icon{name="x"} is dropped, :badge[New]{…}
// keeps "New"). Hugo shortcodes are stripShortcodes's. Inline code spans are left as they are.
//
// It is linear: every closer is looked for at most maxScan bytes ahead, and failed searches may
// read at most budget bytes in all; past that the rest is kept as text.
func refStripTemplates(s string) string {
	if !strings.ContainsAny(s, "{:") {
		return s
	}
	const maxScan = 1 << 12
	budget := 16*len(s) + maxScan
	// find looks for needle in s[from:], within the window; -1 when not found.
	find := func(from int, needle string) int {
		n := min(maxScan, budget)
		if n <= 0 || from > len(s) {
			return -1
		}
		w := s[from:min(len(s), from+n)]
		if j := strings.Index(w, needle); j >= 0 {
			return from + j
		}
		budget -= len(w)
		return -1
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == '`':
			n := 0
			for i+n < len(s) && s[i+n] == '`' {
				n++
			}
			if j := find(i+n, s[i:i+n]); j >= 0 && !strings.Contains(s[i:j], "\n\n") {
				b.WriteString(s[i : j+n])
				i = j + n
				continue
			}
			b.WriteString(s[i : i+n])
			i += n
			continue
		case c == '\\' && i+1 < len(s):
			b.WriteString(s[i : i+2])
			i += 2
			continue
		case c == '{' && i+1 < len(s) && s[i+1] == '%':
			j := find(i+2, "%}")
			if j < 0 {
				break
			}
			name := tagName(s[i+2 : j])
			end := j + 2
			if dropTemplateBlocks[name] {
				// The closing tag is looked for within one window (64 KiB) after the opening
				// one; a failed search spends the budget, so openers that never close stay
				// linear.
				const blockScan = 1 << 16
				w := s[end:min(len(s), end+min(blockScan, max(budget, 0)))]
				closeTag, found := "end"+name, false
				for k := 0; k < len(w); {
					o := strings.Index(w[k:], "{%")
					if o < 0 {
						break
					}
					e := strings.Index(w[k+o+2:], "%}")
					if e < 0 {
						break
					}
					if tn := tagName(w[k+o+2 : k+o+2+e]); tn == closeTag || tn == "end" { // Zola closes with {% end %}
						end, found = end+k+o+2+e+2, true
						break
					}
					k += o + 2 + e + 2
				}
				if !found {
					budget -= len(w)
				}
			}
			i = end
			continue
		case c == '{' && i+1 < len(s) && s[i+1] == '{' && (i+2 >= len(s) || (s[i+2] != '<' && s[i+2] != '%')):
			if j := find(i+2, "}}"); j >= 0 {
				i = j + 2
				continue
			}
		case c == '{' && i+1 < len(s) && s[i+1] == '#':
			if i+2 < len(s) && (s[i+2] == ' ' || s[i+2] == '-') { // a Nunjucks comment {# … #}
				if j := find(i+2, "#}"); j >= 0 {
					i = j + 2
					continue
				}
			}
			if j := attrEnd(s, i); j > 0 { // a heading id {#id}
				i = j
				continue
			}
		case c == '{' && i+1 < len(s) && (s[i+1] == '.' || s[i+1] == ':'):
			if j := attrEnd(s, i); j > 0 {
				i = j
				continue
			}
		case c == ':' && i+1 < len(s) && isASCIILetter(s[i+1]) && (i == 0 || !isWordByte(s[i-1])):
			if end, keep, ok := mdcInline(s, i); ok {
				b.WriteString(keep)
				i = end
				continue
			}
		}
		b.WriteByte(c)
		i++
	}
	return b.String()
}
