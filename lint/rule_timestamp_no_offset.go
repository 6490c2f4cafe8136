package lint

import "github.com/okf-tools/okf/okf"

// TimestampNoOffset reports a datetime without a UTC offset. D10 reads it as UTC, which may be hours
// off from what the writer meant; the message says how it was read.
var TimestampNoOffset = &Rule{Code: "OKF202", Name: "timestamp-no-offset", Severity: okf.Warning, Spec: "§5", Decision: "D10", Scope: ScopeConcept,
	Fix: &Fixer{Make: fixTimestamp,
		Doc: "adds the Z okf already reads the datetime with (2026-06-20T22:53:05 → 2026-06-20T22:53:05Z), keeping its quotes"},
	Title: "timestamp without a UTC offset",
	Doc: "A timestamp is an ISO 8601 datetime with an explicit offset (§5): `Z` or `+02:00`. Without one, the instant " +
		"is ambiguous; okf reads it as UTC (D10).\n\n" +
		"Bad:\n\n    generated: { by: human:ana, at: 2026-06-20T22:53:05 }\n\n" +
		"Good:\n\n    generated: { by: human:ana, at: 2026-06-20T22:53:05Z }",
	Check: checkTimestampForm(okf.NoOffset)}
