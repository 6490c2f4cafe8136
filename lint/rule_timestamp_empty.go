package lint

import "github.com/okf-tools/okf/okf"

// TimestampEmpty reports a timestamp key written with an empty value, which D10 counts as absent:
// a `stale_after: ""` silently never expires.
var TimestampEmpty = &Rule{Code: "OKF203", Name: "timestamp-empty", Severity: okf.Warning, Spec: "§5", Decision: "D10", Scope: ScopeConcept,
	Title: "timestamp is empty",
	Doc: "An empty timestamp (`at: \"\"` or `at:` with no value) counts as absent (D10): a blank `stale_after` never " +
		"makes the concept stale, a blank `verified[].at` cannot say how recent the check was.\n\n" +
		"Bad:\n\n    stale_after: \"\"\n\n" +
		"Good:\n\n    stale_after: 2026-09-23T00:00:00Z",
	Check: checkTimestampForm(okf.Empty)}
