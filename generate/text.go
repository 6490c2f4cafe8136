package generate

import (
	"html"
	"strings"
	"unicode"
	"unicode/utf8"
)

// DefaultDescriptionLength is how many characters a description may have before it is cut at a
// word boundary with an ellipsis.
const DefaultDescriptionLength = 200

// OutlineItem is one heading of a post, for a concept's outline.
type OutlineItem struct {
	Level int
	Text  string
}

// privateBase starts the private-use runes that stand for escaped ASCII punctuation in Flatten.
const privateBase = 0xE100

// Flatten turns one piece of inline Markdown into plain text: images are dropped, links keep their
// text, footnote references and emphasis markers go, and whitespace collapses to single spaces.
// Inline code keeps its backticks.
func Flatten(s string) string {
	// Hide backslash-escaped punctuation (\*) from the passes below as private-use runes.
	s = hideEscapes(s)
	s = bracketLinks(s, '!') // images
	s = bracketLinks(s, '(') // inline links keep their text
	s = bracketLinks(s, '[') // reference links too
	s = dropFootnoteRefs(s)
	s = pairedMarks(s, false) // strong
	s = pairedMarks(s, true)  // struck text is withdrawn, not kept as if it were true
	s = singleMarks(s, '*')
	for range 2 { // a second pass for neighbours that shared a boundary character
		s = singleMarks(s, '_')
	}
	return strings.TrimSpace(collapseSpace(revealEscapes(s)))
}

// Outline returns the headings of stripped Markdown (StripMDX output), flattened to text.
func Outline(md string) []OutlineItem {
	var items []OutlineItem
	lines := strings.Split(md, "\n")
	for i, line := range lines {
		if level, text, ok := atxHeading(line); ok {
			if t := Flatten(text); t != "" {
				items = append(items, OutlineItem{Level: level, Text: t})
			}
			continue
		}
		if i > 0 && strings.TrimSpace(lines[i-1]) != "" && !isBlockStart(lines[i-1]) {
			if c, ok := setextUnderline(line); ok && (i < 2 || strings.TrimSpace(lines[i-2]) == "") {
				level := 1
				if c == '-' {
					level = 2
				}
				if t := Flatten(lines[i-1]); t != "" {
					items = append(items, OutlineItem{Level: level, Text: t})
				}
			}
		}
	}
	return items
}

// isBlockStart reports whether a line starts something that is not a paragraph line.
func isBlockStart(line string) bool {
	t := strings.TrimSpace(line)
	_, _, atx := atxHeading(line)
	return atx || isListMark(line) || isRule(line) ||
		strings.HasPrefix(t, ">") || strings.HasPrefix(t, "|") || isBracketDef(line, true) ||
		isBracketDef(line, false)
}

// Paragraphs returns the prose paragraphs of stripped Markdown, flattened to text: headings, lists,
// tables, rules, footnote and link definitions are left out, and blockquote markers are removed.
func Paragraphs(md string) []string {
	var paras []string
	var cur []string
	flush := func() {
		if len(cur) > 0 {
			if t := Flatten(strings.Join(cur, " ")); t != "" && hasLetter(t) {
				paras = append(paras, t)
			}
			cur = nil
		}
	}
	lines := strings.Split(md, "\n")
	for i, line := range lines {
		t := strings.TrimSpace(line)
		if t == "" {
			flush()
			continue
		}
		if strings.HasPrefix(t, ">") {
			t = strings.TrimSpace(strings.TrimLeft(t, "> "))
			if t == "" {
				flush()
				continue
			}
			cur = append(cur, t)
			continue
		}
		if isBlockStart(line) {
			flush()
			continue
		}
		if i+1 < len(lines) && isSetextUnderline(lines[i+1]) {
			cur = nil // the paragraph is a setext heading's text
			continue
		}
		cur = append(cur, t)
	}
	flush()
	return paras
}

func hasLetter(s string) bool {
	for _, r := range s {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			return true
		}
	}
	return false
}

// abbreviations end in a period without ending a sentence.
var abbreviations = map[string]bool{
	"e.g.": true, "i.e.": true, "etc.": true, "vs.": true, "mr.": true, "mrs.": true, "ms.": true,
	"dr.": true, "st.": true, "no.": true, "fig.": true, "cf.": true, "approx.": true, "inc.": true,
}

// FirstSentence returns the first sentence of plain text: up to and including the first '.', '!' or
// '?' that is followed by a space or the end (common abbreviations and single-letter initials do not
// end a sentence), or the first '。', '！', '？'. Closing brackets and quotes (straight or curly)
// right after the mark belong to the sentence. Text without an end mark is returned whole.
func FirstSentence(s string) string {
	s = strings.TrimSpace(collapseSpace(s))
	for i := 0; i < len(s); {
		r, w := utf8.DecodeRuneInString(s[i:])
		switch r {
		case '。', '！', '？':
			return s[:i+w]
		case '.', '!', '?':
			end := i + 1
			for end < len(s) {
				c, cw := utf8.DecodeRuneInString(s[end:])
				if !strings.ContainsRune(`.!?)"'’”`, c) {
					break
				}
				if countWork != nil {
					*countWork++
				}
				end += cw
			}
			if end < len(s) && s[end] != ' ' {
				// 3.5, example.com, "?!x": no mark of the run ends a sentence either, since each
				// would reach the same end. Going on after the run keeps the work linear.
				i = end
				continue
			}
			if r == '.' && isAbbreviation(s[:i+1]) {
				break
			}
			return s[:end]
		}
		i += w
	}
	return s
}

func isAbbreviation(upto string) bool {
	word := upto[strings.LastIndexByte(upto, ' ')+1:]
	word = strings.TrimLeft(word, `("'`)
	if abbreviations[strings.ToLower(word)] || isInitials(word) {
		return true
	}
	// A single capital initial ("J. R. R. Tolkien").
	r, size := utf8.DecodeRuneInString(word)
	return size+1 == len(word) && unicode.IsUpper(r)
}

// Cut shortens plain text to at most max characters (runes). Text that fits is returned unchanged;
// longer text is cut at the last word boundary that leaves room for an ellipsis, trailing
// punctuation is dropped, and "…" is appended. Text without spaces (CJK) is cut at a character.
func Cut(s string, max int) string {
	if max <= 0 || utf8.RuneCountInString(s) <= max {
		return s
	}
	runes := []rune(s)
	limit := max - 1 // room for the ellipsis
	cut := limit
	if runes[limit] != ' ' {
		for cut > 0 && runes[cut] != ' ' {
			cut--
		}
		if cut == 0 {
			cut = limit
		}
	}
	out := strings.TrimRightFunc(string(runes[:cut]), func(r rune) bool {
		return unicode.IsSpace(r) || strings.ContainsRune(",;:-–—", r)
	})
	return out + "…"
}

// Describe makes a concept description (§4.1: a single sentence): the first sentence of the
// given text as plain text, cut to max characters.
func Describe(s string, max int) string {
	return Cut(FirstSentence(plainText(Flatten(s))), max)
}

// DescribeWhole makes a concept description from a post's own description: kept whole as
// plain text, cut at a word boundary (with "…") only when longer than max characters.
func DescribeWhole(s string, max int) string {
	return Cut(plainText(Flatten(stripTemplates(stripShortcodes(s)))), max)
}

// CleanInline turns a frontmatter text (a title) that may hold Markdown, HTML or MDX into plain
// text.
func CleanInline(s string, mdx bool) string {
	return plainText(Flatten(stripTags(stripTemplates(stripShortcodes(stripComments(s))), mdx)))
}

// plainText drops what Flatten keeps for Markdown bodies but a frontmatter text must not hold:
// the backticks of inline code and HTML character references.
func plainText(s string) string {
	s = strings.ReplaceAll(s, "`", "")
	s = html.UnescapeString(s)
	return strings.TrimSpace(collapseSpace(s))
}
