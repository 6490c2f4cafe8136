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
			p.ReportText(pos, sentencesMessage(n))
		}
	})
}

// sentencesMessages are the messages for 0 to 9 sentences, made once: most descriptions that
// are not one sentence have two or three.
var sentencesMessages = func() (m [10]string) {
	for n := range m {
		m[n] = sentencesText(n)
	}
	return m
}()

// sentencesMessage is the finding for a description of n sentences.
func sentencesMessage(n int) string {
	if n >= 0 && n < len(sentencesMessages) {
		return sentencesMessages[n]
	}
	return sentencesText(n)
}

func sentencesText(n int) string {
	return "description has " + strconv.Itoa(n) + " sentences, expected one: keep the summary and move the rest into the body (§4.1)"
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
