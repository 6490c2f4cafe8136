package lint

import "github.com/okf-tools/okf/okf"

// TimestampInvalid reports a timestamp key whose value cannot be read as a date at all. It is
// ignored, so whatever it was meant to say (staleness, recency) is lost.
var TimestampInvalid = &Rule{Code: "OKF204", Name: "timestamp-invalid", Severity: okf.Warning, Spec: "§5", Decision: "D10", Scope: ScopeConcept,
	Title: "timestamp cannot be read",
	Doc: "A timestamp is an ISO 8601 datetime with an explicit offset (§5). Text such as `last week`, `30/06/2026` or a " +
		"mapping cannot be read and is ignored (D10).\n\n" +
		"Bad:\n\n    sources:\n      - resource: https://example.com/doc\n        last_modified: June 2026\n\n" +
		"Good:\n\n    sources:\n      - resource: https://example.com/doc\n        last_modified: 2026-06-01T00:00:00Z",
	Check: checkTimestampForm(okf.Invalid)}
