package generate

import (
	"regexp"
	"strings"
)

// The chain of regular expressions Flatten was before it became a scanner (flatten.go), kept as
// the reference FuzzStripMDX and TestFlattenMatchesReference compare the scanner against: the
// same input must give the same bytes.
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
)

// flattenRE is Flatten as a chain of regular expressions.
func flattenRE(s string) string {
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
	s = strings.Map(func(r rune) rune {
		if r >= privateBase && r < privateBase+128 {
			return r - privateBase
		}
		return r
	}, s)
	return strings.TrimSpace(refSpaceRE.ReplaceAllString(s, " "))
}
