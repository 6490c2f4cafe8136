package lint

import "github.com/okf-tools/okf/okf"

// LogHeadingExtraText reports a log.md date heading with text after its date (D8: warning, not the
// §11 error a heading without a date is). The date is read; the text belongs in an entry.
var LogHeadingExtraText = &Rule{Code: "OKF805", Name: "log-heading-extra-text", Severity: okf.Warning, Spec: "§9", Decision: "D8", Scope: ScopeBundle,
	Title: "log date heading with text after the date",
	Doc: "Date headings use ISO 8601 `YYYY-MM-DD` form (§9). A heading that begins with a valid date followed by more " +
		"text is read by its date (D8); move the text into an entry.\n\n" +
		"Bad:\n\n    ## 2026-06-13, Initial OKF v0.1 bundle\n\n" +
		"Good:\n\n    ## 2026-06-13\n    * **Creation**: Initial OKF v0.1 bundle.",
	Check: checkLogHeadingExtraText}

func checkLogHeadingExtraText(p *Pass) {
	for _, lg := range p.Bundle.Logs {
		for _, g := range lg.Groups {
			if g.Valid && g.Extra != "" {
				p.Reportf(g.Pos, "log heading %q has text after its date: write \"## %s\" and move %q into an entry (§9, D8)", g.Heading, g.Date.Format("2006-01-02"), g.Extra)
			}
		}
	}
}
