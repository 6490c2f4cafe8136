package lint

import (
	"github.com/okf-tools/okf/okf"
)

// TimestampDateOnly reports a date without a time where §5 asks for a datetime with an offset. D10
// reads it as 00:00 UTC of that day; the message says so, since every report built on it is
// approximate.
var TimestampDateOnly = &Rule{Code: "OKF201", Name: "timestamp-date-only", Severity: okf.Warning, Spec: "§5", Decision: "D10", Scope: ScopeConcept,
	Fix: &Fixer{Make: fixTimestamp,
		Doc: "rewrites the date as the datetime okf already reads it as, 00:00 UTC (2026-09-23 → 2026-09-23T00:00:00Z), keeping its quotes"},
	Title: "timestamp is a date without a time",
	Doc: "Every timestamp-valued key (`generated.at`, `verified[].at`, `stale_after`, `sources[].last_modified`, " +
		"`usage_window.from`/`to`, also inside a source) is an ISO 8601 datetime with an explicit offset (§5). " +
		"A date-only value is read as 00:00 UTC of that day (D10).\n\n" +
		"Bad:\n\n    stale_after: 2026-09-23\n\n" +
		"Good:\n\n    stale_after: 2026-09-23T00:00:00Z",
	Check: checkTimestampForm(okf.DateOnly)}

// checkTimestampForm reports every timestamp field written in form, one rule per form (D10).
func checkTimestampForm(form okf.TimeForm) func(p *Pass) {
	return func(p *Pass) {
		sc := p.buffers()
		buf := sc.ts[:0]
		defer func() { sc.ts = buf }()
		withFrontmatter(p.Bundle, func(c *okf.Concept, fm *okf.Frontmatter) {
			buf = timestampFields(buf, fm)
			for _, f := range buf {
				if f.ts.Form != form {
					continue
				}
				pos := at(f.ts.Value, fileStart(c))
				switch form {
				case okf.DateOnly:
					p.ReportText(pos, f.name()+" "+quote(f.ts.Raw)+" is a date without a time: read as "+rfc3339(f.ts)+" (00:00 UTC); write a datetime with an offset, for example "+rfc3339(f.ts)+" (§5, D10)")
				case okf.NoOffset:
					p.ReportText(pos, f.name()+" "+quote(f.ts.Raw)+" has no UTC offset: read as UTC, "+rfc3339(f.ts)+"; add the offset, for example "+rfc3339(f.ts)+" (§5, D10)")
				case okf.Empty:
					p.ReportText(pos, f.name()+" is empty: read as absent; write a datetime with an offset such as 2026-06-30T14:00:00Z, or remove the key (§5, D10)")
				case okf.Invalid:
					if f.ts.Kind == okf.Scalar {
						p.Reportf(pos, "%s %q is not a timestamp: ignored; write an ISO 8601 datetime with an offset such as 2026-06-30T14:00:00Z (§5, D10)", f.name(), f.ts.Raw)
					} else {
						p.Reportf(pos, "%s must be a timestamp, found %s: ignored; write an ISO 8601 datetime with an offset such as 2026-06-30T14:00:00Z (§5, D10)", f.name(), f.ts.Describe())
					}
				}
			}
		})
	}
}
