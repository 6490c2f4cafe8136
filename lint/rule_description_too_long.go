package lint

import (
	"strings"

	"unicode/utf8"

	"github.com/okf-tools/okf/okf"
)

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
