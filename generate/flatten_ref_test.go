package generate

import (
	"regexp"
	"strings"
)

// The chain of regular expressions Flatten was before it became a scanner (flatten.go), kept as
// the reference FuzzStripMDX and TestFlattenMatchesReference compare the scanner against: the
// same input must give the same bytes. Like Flatten, it keeps the text's own private-use runes
// (U+E100–U+E180) apart from the ones that stand for escapes, as U+E180 followed by the rune.
var (
	refImageRE   = regexp.MustCompile(`!\[([^\]]*)\]\([^)]*\)`)
	refLinkRE    = regexp.MustCompile(`\[([^\]]*)\]\([^)]*\)`)
	refRefLinkRE = regexp.MustCompile(`\[([^\]^][^\]]*)\]\[[^\]]*\]`)
	refFootRefRE = regexp.MustCompile(`\[\^[^\]\s]+\]`)
	refStrongRE  = regexp.MustCompile(`(\*\*|__)(\S(?:.*?\S)?)(\*\*|__)`)
	refEmRE      = regexp.MustCompile(`(^|[^\w*])\*(\S(?:[^*]*?\S)?)\*`)
	refStrikeRE  = regexp.MustCompile(`~~(\S(?:.*?\S)?)~~`)
	refUnderRE   = regexp.MustCompile(`(^|[^\p{L}\p{N}_\\])_(\S(?:[^_]*?\S)?)_($|[^\p{L}\p{N}_])`)
	refSpaceRE   = regexp.MustCompile(`\s+`)
	refEscapeRE  = regexp.MustCompile(`\\([!-/:-@\[-` + "`" + `{-~])`)
	refPrivateRE = regexp.MustCompile(`[\x{E100}-\x{E180}]`)
	refRevealRE  = regexp.MustCompile(`\x{E180}[\x{E100}-\x{E180}]|[\x{E100}-\x{E17F}]`)
)

// flattenRE is Flatten as a chain of regular expressions.
func flattenRE(s string) string {
	s = refPrivateRE.ReplaceAllString(s, "\uE180$0") // the text's own private-use runes
	s = refEscapeRE.ReplaceAllStringFunc(s, func(m string) string { return string(rune(privateBase + int(m[1]))) })
	s = refImageRE.ReplaceAllString(s, "")
	s = refLinkRE.ReplaceAllString(s, "$1")
	s = refRefLinkRE.ReplaceAllString(s, "$1")
	s = refFootRefRE.ReplaceAllString(s, "")
	s = refStrongRE.ReplaceAllString(s, "$2")
	s = refStrikeRE.ReplaceAllString(s, "")
	s = refEmRE.ReplaceAllString(s, "$1$2")
	for range 2 {
		s = refUnderRE.ReplaceAllString(s, "$1$2$3")
	}
	s = strings.Map(func(r rune) rune { return r }, s) // one U+FFFD for each invalid byte
	s = refRevealRE.ReplaceAllStringFunc(s, func(m string) string {
		r := []rune(m)
		if len(r) == 2 {
			return string(r[1]) // the text's own
		}
		return string(r[0] - privateBase) // an escape
	})
	return strings.TrimSpace(refSpaceRE.ReplaceAllString(s, " "))
}
