package lint

import (
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/okf-tools/okf/okf"
)

// DescriptionNotOneSentence reports descriptions that are not the single sentence §4.1 asks for:
// several sentences, or several lines. Recommended-field hygiene (D1: info). A single sentence
// that is merely long is description-too-long's finding: a message about sentences on a
// description of one sentence would be wrong.
var DescriptionNotOneSentence = &Rule{Code: "OKF103", Name: "description-not-one-sentence", Severity: okf.Info, Spec: "§4.1", Scope: ScopeConcept,
	Title: "description is not one sentence",
	Doc: "`description` is \"a single sentence summarizing the concept\" (§4.1); index.md entries repeat it (§8). " +
		"More than one sentence, or a line break, is reported. Move the detail into the body. A single sentence that " +
		"is too long is description-too-long (OKF111).\n\n" +
		"Bad:\n\n    description: Recognized revenue for a period. Backed by an Attested Computation.\n\n" +
		"Good:\n\n    description: Recognized revenue for a period, backed by an Attested Computation.",
	Check: checkDescriptionNotOneSentence}

// DescriptionTooLong reports a one-sentence, one-line description longer than maxDescription
// characters: a convention (info), since §4.1 sets no length, but index entries and previews
// repeat the description, and a paragraph there stops being a summary.
var DescriptionTooLong = &Rule{Code: "OKF111", Name: "description-too-long", Severity: okf.Info, Scope: ScopeConcept,
	Title: "description longer than 200 characters",
	Doc: "`description` is repeated by index.md entries (§8), search snippets and previews (§4.1). One longer than 200 " +
		"characters stops being a one-line summary there. §4.1 sets no length: this is a convention. A description of " +
		"several sentences or lines is description-not-one-sentence (OKF103) instead.\n\n" +
		"Bad:\n\n    description: One row per completed customer order across every sales channel, with the totals, taxes, discounts, refunds, shipping costs, payment method, fulfilment centre, carrier and the marketing campaign that brought the customer in\n\n" +
		"Good:\n\n    description: One row per completed customer order across every sales channel.",
	Check: checkDescriptionTooLong}

// maxDescription is the length (in characters) past which a description stops being a one-line
// summary in an index entry.
const maxDescription = 200

// abbreviations end with a full stop without ending a sentence.
var abbreviations = map[string]bool{"e.g": true, "i.e": true, "etc": true, "vs": true, "cf": true, "approx": true, "incl": true, "no": true, "fig": true}

// oneLineDescription returns a concept's description trimmed, and whether it is a non-empty string.
func oneLineDescription(fm *okf.Frontmatter) (string, bool) {
	d := fm.Description
	if !d.IsString() {
		return "", false // a missing or non-string description is another rule's finding
	}
	text := strings.TrimSpace(d.Raw)
	return text, text != ""
}

func checkDescriptionNotOneSentence(p *Pass) {
	withFrontmatter(p.Bundle, func(c *okf.Concept, fm *okf.Frontmatter) {
		text, ok := oneLineDescription(fm)
		if !ok {
			return
		}
		pos := at(fm.Description, fileStart(c))
		if strings.Contains(text, "\n") {
			p.Reportf(pos, "description spans %d lines: write one sentence on one line and move the rest into the body (§4.1)", strings.Count(text, "\n")+1)
			return
		}
		if n := sentences(text); n > 1 {
			p.ReportText(pos, "description has "+strconv.Itoa(n)+" sentences, expected one: keep the summary and move the rest into the body (§4.1)")
		}
	})
}

func checkDescriptionTooLong(p *Pass) {
	withFrontmatter(p.Bundle, func(c *okf.Concept, fm *okf.Frontmatter) {
		text, ok := oneLineDescription(fm)
		if !ok || strings.Contains(text, "\n") {
			return
		}
		n := utf8.RuneCountInString(text)
		if n <= maxDescription || sentences(text) > 1 {
			return // several sentences: OKF103 already says to move the rest into the body
		}
		p.Reportf(at(fm.Description, fileStart(c)), "description is %d characters long, expected at most %d for an index entry: shorten the summary and move the detail into the body", n, maxDescription)
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
