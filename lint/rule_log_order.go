package lint

import "github.com/okf-tools/okf/okf"

// LogOrder reports log.md date groups that are not newest first (§9, D8: warning). Readers and
// agents take the first group as the latest change.
var LogOrder = &Rule{Code: "OKF803", Name: "log-order", Severity: okf.Warning, Spec: "§9", Decision: "D8", Scope: ScopeBundle,
	Title: "log date groups not newest first",
	Doc: "A log.md is a flat list of date-grouped entries, newest first (§9). A group dated after the group above it " +
		"is out of order (D8).\n\n" +
		"Bad:\n\n    ## 2026-05-15\n    * **Initialization**: Created the bundle.\n\n    ## 2026-05-22\n    * **Update**: Added orders.\n\n" +
		"Good:\n\n    ## 2026-05-22\n    * **Update**: Added orders.\n\n    ## 2026-05-15\n    * **Initialization**: Created the bundle.",
	Check: checkLogOrder}

func checkLogOrder(p *Pass) {
	for _, lg := range p.Bundle.Logs {
		var prev *okf.LogGroup
		for i := range lg.Groups {
			g := &lg.Groups[i]
			if !g.Valid {
				continue
			}
			if prev != nil && g.Date.After(prev.Date) {
				p.Reportf(g.Pos, "date group %s comes after the older group %s (line %d): keep date groups newest first (§9)", g.Date.Format("2006-01-02"), prev.Date.Format("2006-01-02"), prev.Pos.Line)
			}
			prev = g
		}
	}
}
