package generate

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// dropTemplateBlocks are Liquid/Nunjucks block tags whose content is not the post's prose: code
// (highlight, raw), comments, and callouts; their content goes with their tags.
var dropTemplateBlocks = map[string]bool{"highlight": true, "raw": true, "comment": true, "codeblock": true,
	"callout": true, "note": true, "tip": true, "warning": true, "info": true, "aside": true, "alert": true,
	"admonition": true, "notice": true, "details": true}

// stripTemplates removes the template and component syntax engines put in Markdown, keeping the
// prose around it: Liquid/Nunjucks tags ({% … %}, with the content of code, comment and callout
// blocks), outputs ({{ … }}) and comments ({# … #}), attribute lists ({#id}, {.class}, {: …},
// Kramdown's {:toc}), and Nuxt MDC inline components (:icon{name="x"} is dropped, :badge[New]{…}
// keeps "New"). Hugo shortcodes are stripShortcodes's. Inline code spans are left as they are.
//
// It is linear: its searches are bounded (boundedScan, 4 KiB ahead; a block's closing tag 64 KiB).
func stripTemplates(s string) string {
	if !strings.ContainsAny(s, "{:") {
		return s
	}
	sc := newBoundedScan(s, 1<<12)
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
		case c == '{' && i+1 < len(s) && s[i+1] == '%':
			j := sc.find(i+2, "%}")
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
				w := s[end:min(len(s), end+min(blockScan, max(sc.budget, 0)))]
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
					sc.spend(w)
				}
			}
			i = end
			continue
		case c == '{' && i+1 < len(s) && s[i+1] == '{' && (i+2 >= len(s) || (s[i+2] != '<' && s[i+2] != '%')):
			if j := sc.find(i+2, "}}"); j >= 0 {
				i = j + 2
				continue
			}
		case c == '{' && i+1 < len(s) && s[i+1] == '#':
			if i+2 < len(s) && (s[i+2] == ' ' || s[i+2] == '-') { // a Nunjucks comment {# … #}
				if j := sc.find(i+2, "#}"); j >= 0 {
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
		j := textRun(s, i, templateSpecials)
		b.WriteString(s[i:j])
		i = j
	}
	return b.String()
}

var templateSpecials = specials("`\\{:")

// tagName is the first word of a template tag's inside ("highlight" of " highlight ruby ").
func tagName(inner string) string {
	inner = strings.TrimLeft(inner, "-~ \t\n")
	end := strings.IndexFunc(inner, func(r rune) bool { return !(unicode.IsLetter(r) || unicode.IsDigit(r) || r == '_') })
	if end < 0 {
		end = len(inner)
	}
	return inner[:end]
}

// attrEnd is the end of an attribute list {#id .class key=value} or {: …} at s[i], on one line
// and at most 256 bytes; 0 when there is none.
func attrEnd(s string, i int) int {
	for j := i + 1; j < len(s) && j < i+256; j++ {
		switch s[j] {
		case '}':
			if j == i+2 && s[i+1] != ':' {
				return 0 // "{#}" or "{.}"
			}
			return j + 1
		case '\n', '{':
			return 0
		}
	}
	return 0
}

func isASCIILetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

func isWordByte(c byte) bool {
	return isASCIILetter(c) || c >= '0' && c <= '9' || c == '_' || c == '/' || c >= utf8.RuneSelf
}

// mdcInline reads a Nuxt MDC inline component at s[i] (":name", then "[text]" and/or "{attrs}",
// at least one of them, on one line). keep is its text.
func mdcInline(s string, i int) (end int, keep string, ok bool) {
	j := i + 1
	for j < len(s) && (isASCIILetter(s[j]) || s[j] >= '0' && s[j] <= '9' || s[j] == '-' || s[j] == '_') {
		j++
	}
	had := false
	if j < len(s) && s[j] == '[' {
		k := strings.IndexAny(s[j:min(len(s), j+512)], "]\n")
		if k < 0 || s[j+k] != ']' {
			return 0, "", false
		}
		keep, j, had = s[j+1:j+k], j+k+1, true
	}
	if j < len(s) && s[j] == '{' {
		k := strings.IndexAny(s[j:min(len(s), j+512)], "}\n")
		if k < 0 || s[j+k] != '}' {
			return 0, "", false
		}
		j, had = j+k+1, true
	}
	return j, keep, had
}
