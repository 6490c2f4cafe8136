package lint

import (
	"github.com/okf-tools/okf/okf"
)

// ChangedSinceVerified reports a concept whose content changed after its last verification (D12):
// `generated.at` is later than the latest `verified[].at`, so the check no longer covers what is
// written. §5.2 allows it (the two are independent); it is hygiene (D1: info).
var ChangedSinceVerified = &Rule{Code: "OKF306", Name: "changed-since-verified", Severity: okf.Info, Spec: "§5.2", Decision: "D12", Scope: ScopeConcept,
	Title: "content changed since it was last verified",
	Doc: "`generated.at` marks the content's last meaningful change; the latest `verified[].at` marks the last check " +
		"(§5.2). When the change is later, the verification vouches for text that is no longer there (D12). " +
		"Re-verify and add an entry.\n\n" +
		"Bad:\n\n    generated: { by: agent/v2, at: 2026-07-10T00:00:00Z }\n    verified: { by: human:ana, at: 2026-07-01T00:00:00Z }\n\n" +
		"Good:\n\n    generated: { by: agent/v2, at: 2026-07-10T00:00:00Z }\n    verified: { by: human:ana, at: 2026-07-12T00:00:00Z }",
	Check: checkChangedSinceVerified}

func checkChangedSinceVerified(p *Pass) {
	withFrontmatter(p.Bundle, func(c *okf.Concept, fm *okf.Frontmatter) {
		if !okf.ChangedSinceVerified(fm) {
			return
		}
		gen, legacy := okf.GeneratedAt(fm)
		last, _ := okf.LastVerified(fm.Verified)
		genName := "generated.at"
		if legacy {
			genName = "timestamp"
		}
		p.Reportf(at(gen.Value, fileStart(c)), "content changed at %s (%s%s), after its last verification at %s by %q%s: re-verify it and add a verified entry (§5.2, D12)",
			rfc3339(gen), genName, approxNote(gen), rfc3339(last.At), last.By.Raw, approxNote(last.At))
	})
}

// approxNote says how an approximate instant was read (D10: every report that used one says so).
func approxNote(ts okf.Timestamp) string {
	switch ts.Form {
	case okf.DateOnly:
		return ", read from the date " + quote(ts.Raw) + " as 00:00 UTC"
	case okf.NoOffset:
		return ", read from " + quote(ts.Raw) + " as UTC"
	}
	return ""
}
