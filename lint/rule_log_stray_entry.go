package lint

import "github.com/okf-tools/okf/okf"

// LogStrayEntry reports entries or prose in a log.md outside any date group (§9, D8: warning). The
// log is a flat list of date-grouped entries; undated text has no place in its history.
var LogStrayEntry = &Rule{Code: "OKF806", Name: "log-stray-entry", Severity: okf.Warning, Spec: "§9", Decision: "D8", Scope: ScopeBundle,
	Title: "log entry or prose outside a date group",
	Doc: "A log.md is a title followed by date groups (§9). An entry or paragraph before the first `## YYYY-MM-DD` " +
		"heading, or after a heading of another level that closes the group, belongs to no date (D8).\n\n" +
		"Bad:\n\n    # Directory Update Log\n\n    * Added orders.\n\n    ## 2026-05-22\n\n" +
		"Good:\n\n    # Directory Update Log\n\n    ## 2026-05-22\n    * **Update**: Added orders.",
	Check: checkLogStrayEntry}

func checkLogStrayEntry(p *Pass) {
	for _, lg := range p.Bundle.Logs {
		for _, pos := range lg.Stray {
			p.Reportf(pos, "entry or prose outside any date group: put it under a \"## YYYY-MM-DD\" heading (§9)")
		}
	}
}
