package lint

import "github.com/okf-tools/okf/okf"

// LogDuplicateDate reports two log.md groups with the same date (§9, D8: warning): one day's changes
// split in two places.
var LogDuplicateDate = &Rule{Code: "OKF804", Name: "log-duplicate-date", Severity: okf.Warning, Spec: "§9", Decision: "D8", Scope: ScopeBundle,
	Title: "log date used by two groups",
	Doc: "Each date has one group in a log.md (§9); a second group with the same date splits one day's changes (D8). " +
		"Merge them.\n\n" +
		"Bad:\n\n    ## 2026-05-22\n    * **Update**: Added orders.\n\n    ## 2026-05-22\n    * **Update**: Added customers.\n\n" +
		"Good:\n\n    ## 2026-05-22\n    * **Update**: Added orders.\n    * **Update**: Added customers.",
	Check: checkLogDuplicateDate}

func checkLogDuplicateDate(p *Pass) {
	for _, lg := range p.Bundle.Logs {
		first := make(map[string]int, len(lg.Groups))
		for _, g := range lg.Groups {
			if !g.Valid {
				continue
			}
			d := g.Date.Format("2006-01-02")
			if line, dup := first[d]; dup {
				p.Reportf(g.Pos, "date %s already has a group on line %d: merge the two groups (§9)", d, line)
				continue
			}
			first[d] = int(g.Pos.Line)
		}
	}
}
