package generate

import (
	"strings"
	"unicode/utf8"
)

// stripCallouts and FirstSentence as they were before they became linear, kept verbatim as the
// references TestStripCalloutsMatchesReference, TestFirstSentenceMatchesReference and
// FuzzStripMDX compare them with. The one intended difference: refFirstSentence reads the byte
// after an end mark as a rune (rune(s[end])), so a closing ’ or ” never matched; FirstSentence
// decodes it.

// refStripCallouts is stripCallouts before its closing tags were indexed: each opening tag of a
// new name searched the rest of the text for its closing tag.
func refStripCallouts(s string) string {
	noClose := map[string]bool{}
	var b strings.Builder
	for {
		loc := calloutOpenRE.Get().FindStringSubmatchIndex(s)
		if loc == nil {
			break
		}
		name := s[loc[2]:loc[3]]
		if strings.HasSuffix(strings.TrimSpace(s[loc[0]:loc[1]-1]), "/") || noClose[name] {
			b.WriteString(s[:loc[1]])
			s = s[loc[1]:]
			continue
		}
		rest := s[loc[1]:]
		closeTag := "</" + name + ">"
		depth, i, end := 1, 0, -1
		for depth > 0 {
			c := strings.Index(rest[i:], closeTag)
			if c < 0 {
				break
			}
			// Nested openings of the same name before this close.
			depth += strings.Count(rest[i:i+c], "<"+name+">") + strings.Count(rest[i:i+c], "<"+name+" ")
			depth--
			i += c + len(closeTag)
			if depth == 0 {
				end = i
			}
		}
		if end < 0 {
			noClose[name] = true
			b.WriteString(s[:loc[1]])
			s = rest
			continue
		}
		b.WriteString(s[:loc[0]])
		b.WriteString("\n\n")
		s = rest[end:]
	}
	b.WriteString(s)
	return b.String()
}

// refFirstSentence is FirstSentence before it stepped over a run of end marks at once: each mark
// of a run walked the rest of the run.
func refFirstSentence(s string) string {
	s = strings.TrimSpace(collapseSpace(s))
	for i, r := range s {
		switch r {
		case '。', '！', '？':
			return s[:i+utf8.RuneLen(r)]
		case '.', '!', '?':
			end := i + 1
			for end < len(s) && strings.ContainsRune(`.!?)"'’”`, rune(s[end])) {
				end++
			}
			if end < len(s) && s[end] != ' ' {
				continue // 3.5, example.com, "?!x"
			}
			if r == '.' && isAbbreviation(s[:i+1]) {
				continue
			}
			return s[:end]
		}
	}
	return s
}
