package lint

import (
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/okf-tools/okf/okf"
)

// DescriptionNotOneSentence reports descriptions that are not the single sentence §4.1 asks for:
// several sentences, several lines, or so long that index entries and previews become paragraphs.
// Recommended-field hygiene (D1: info).
var DescriptionNotOneSentence = &Rule{Code: "OKF103", Name: "description-not-one-sentence", Severity: okf.Info, Spec: "§4.1",
	Title: "description is not one short sentence",
	Doc: "`description` is \"a single sentence summarizing the concept\" (§4.1); index.md entries repeat it (§8). " +
		"More than one sentence, a line break, or more than 200 characters is reported. Move the detail into the body.\n\n" +
		"Bad:\n\n    description: Recognized revenue for a period. Backed by an Attested Computation.\n\n" +
		"Good:\n\n    description: Recognized revenue for a period, backed by an Attested Computation.",
	Check: checkDescriptionNotOneSentence}

// maxDescription is the length (in characters) past which a description stops being a one-line
// summary in an index entry.
const maxDescription = 200

// abbreviations end with a full stop without ending a sentence.
var abbreviations = map[string]bool{"e.g": true, "i.e": true, "etc": true, "vs": true, "cf": true, "approx": true, "incl": true, "no": true, "fig": true}

func checkDescriptionNotOneSentence(p *Pass) {
	withFrontmatter(p.Bundle, func(c *okf.Concept, fm *okf.Frontmatter) {
		d := fm.Description
		if !d.IsString() {
			return // a missing or non-string description is another rule's finding
		}
		text := strings.TrimSpace(d.Raw)
		pos := at(d, fileStart(c))
		if text == "" {
			return
		}
		if strings.Contains(text, "\n") {
			p.Reportf(pos, "description spans %d lines: write one sentence on one line and move the rest into the body (§4.1)", strings.Count(text, "\n")+1)
			return
		}
		if n := sentences(text); n > 1 {
			p.ReportText(pos, "description has "+strconv.Itoa(n)+" sentences, expected one: keep the summary and move the rest into the body (§4.1)")
			return
		}
		if n := utf8.RuneCountInString(text); n > maxDescription {
			p.Reportf(pos, "description is %d characters long, expected at most %d: keep a one-sentence summary and move the rest into the body (§4.1)", n, maxDescription)
		}
	})
}

// sentences counts the sentences of s, not splitting after common abbreviations ("e.g.") and
// initials ("U.S.").
func sentences(s string) int {
	n := 1
	sentenceBreaks(s, func(m string) {
		word := strings.ToLower(strings.Trim(m, `)]"'’”`))
		if abbreviations[word] || utf8.RuneCountInString(word) == 1 || strings.Contains(word, ".") {
			return
		}
		n++
	})
	return n
}
