package generate

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// The line patterns of the outline and the paragraphs, read by hand: each matches one line (no
// '\n') from its start as the regular expression in its comment did (lines_test.go compares them).

// indentUpTo3 is the end of a line's indentation of at most three spaces ( {0,3}), or -1 when it
// is indented more.
func indentUpTo3(line string) int {
	k := 0
	for k < len(line) && line[k] == ' ' {
		k++
	}
	if k > 3 {
		return -1
	}
	return k
}

func isBlank(c byte) bool { return c == ' ' || c == '\t' }

// atxHeading reads an ATX heading, ^ {0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$: its level
// and its text without the closing hashes.
func atxHeading(line string) (level int, text string, ok bool) {
	k := indentUpTo3(line)
	if k < 0 {
		return 0, "", false
	}
	h := k
	for h < len(line) && line[h] == '#' {
		h++
	}
	level = h - k
	if level < 1 || level > 6 || h < len(line) && !isBlank(line[h]) {
		return 0, "", false
	}
	t := strings.TrimLeft(line[h:], " \t")
	// The text is the shortest start of t whose rest is blanks, or blanks, hashes and blanks.
	e := len(strings.TrimRight(t, " \t"))
	if e2 := len(strings.TrimRight(t[:e], "#")); e2 < e && e2 > 0 && isBlank(t[e2-1]) {
		e = len(strings.TrimRight(t[:e2], " \t"))
	}
	return level, t[:e], true
}

// setextUnderline reads a setext heading's underline, ^ {0,3}(=+|-+)[ \t]*$, and returns its
// character.
func setextUnderline(line string) (byte, bool) {
	k := indentUpTo3(line)
	if k < 0 || k == len(line) || line[k] != '=' && line[k] != '-' {
		return 0, false
	}
	c := line[k]
	j := k
	for j < len(line) && line[j] == c {
		j++
	}
	if strings.TrimLeft(line[j:], " \t") != "" {
		return 0, false
	}
	return c, true
}

func isSetextUnderline(line string) bool {
	_, ok := setextUnderline(line)
	return ok
}

// isListMark: a list item's marker, ^ {0,3}([*+-]|\d{1,9}[.)])[ \t]+.
func isListMark(line string) bool {
	k := indentUpTo3(line)
	if k < 0 || k == len(line) {
		return false
	}
	j := k
	switch c := line[k]; {
	case c == '*' || c == '+' || c == '-':
		j++
	case c >= '0' && c <= '9':
		for j < len(line) && line[j] >= '0' && line[j] <= '9' {
			j++
		}
		if j-k > 9 || j == len(line) || line[j] != '.' && line[j] != ')' {
			return false
		}
		j++
	default:
		return false
	}
	return j < len(line) && isBlank(line[j])
}

// isRule: a thematic break, ^ {0,3}([-*_])([ \t]*[-*_]){2,}[ \t]*$ (the characters may mix).
func isRule(line string) bool {
	k := indentUpTo3(line)
	if k < 0 {
		return false
	}
	n := 0
	for i := k; i < len(line); i++ {
		switch c := line[i]; {
		case c == '-' || c == '*' || c == '_':
			n++
		case isBlank(c) && i > k:
		default:
			return false
		}
	}
	return n >= 3
}

// isBracketDef: a footnote definition, ^ {0,3}\[\^[^\]]+\]: (foot), or a link reference
// definition, ^ {0,3}\[[^\]]+\]:\s.
func isBracketDef(line string, foot bool) bool {
	k := indentUpTo3(line)
	if k < 0 {
		return false
	}
	open := "["
	if foot {
		open = "[^"
	}
	if !strings.HasPrefix(line[k:], open) {
		return false
	}
	from := k + len(open)
	e := strings.IndexByte(line[from:], ']')
	if e < 1 || from+e+1 >= len(line) || line[from+e+1] != ':' {
		return false
	}
	if foot {
		return true
	}
	after := from + e + 2
	return after < len(line) && isPerlSpace(line[after])
}

// isInitials: initials such as z.B. or U.S., ^(\p{L}\.){2,}$.
func isInitials(word string) bool {
	n := 0
	for i := 0; i < len(word); {
		r, w := utf8.DecodeRuneInString(word[i:])
		if !unicode.IsLetter(r) || i+w >= len(word) || word[i+w] != '.' {
			return false
		}
		i += w + 1
		n++
	}
	return n >= 2
}

// isAdmonitionOpen: a container's opening line (trimmed), ^(:{3,}[ \t]*|:{2})[A-Za-z]: :::note,
// ::: tip, or a Nuxt MDC block ::important.
func isAdmonitionOpen(trim string) bool {
	n := 0
	for n < len(trim) && trim[n] == ':' {
		n++
	}
	j := n
	if n >= 3 {
		for j < len(trim) && isBlank(trim[j]) {
			j++
		}
	} else if n != 2 {
		return false
	}
	return j < len(trim) && isASCIILetter(trim[j])
}

// isAdmonitionClose: a container's closing line (trimmed), ^:{2,}$.
func isAdmonitionClose(trim string) bool {
	return len(trim) >= 2 && strings.Trim(trim, ":") == ""
}

// isAlert: a GitHub alert's first line, ^ {0,3}>[ \t]*\[![A-Za-z]+\].
func isAlert(line string) bool {
	k := indentUpTo3(line)
	if k < 0 || !strings.HasPrefix(line[k:], ">") {
		return false
	}
	rest := strings.TrimLeft(line[k+1:], " \t")
	if !strings.HasPrefix(rest, "[!") {
		return false
	}
	j := 2
	for j < len(rest) && isASCIILetter(rest[j]) {
		j++
	}
	return j > 2 && j < len(rest) && rest[j] == ']'
}

// isStatement reports whether a line starts an ESM `import` or `export` statement (MDX allows them
// at the top level only, unindented): ^(import|export)(\s|\{|\*|$).
func isStatement(line string) bool {
	var rest string
	if r, ok := strings.CutPrefix(line, "import"); ok {
		rest = r
	} else if r, ok := strings.CutPrefix(line, "export"); ok {
		rest = r
	} else {
		return false
	}
	return rest == "" || isPerlSpace(rest[0]) || rest[0] == '{' || rest[0] == '*'
}
