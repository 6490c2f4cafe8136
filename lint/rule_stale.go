package lint

import "github.com/okf-tools/okf/okf"

// Stale reports a concept whose `stale_after` has passed (§5.5: stale when now >= stale_after, D11's
// injected clock). The bundle itself declared the content untrustworthy past that instant, and
// consumers warn or refuse (§10.5), so it is a warning.
var Stale = &Rule{Code: "OKF402", Name: "stale", Severity: okf.Warning, Spec: "§5.5", Decision: "D11", Scope: ScopeConcept,
	Title: "concept is stale",
	Doc: "A concept is stale when `now >= stale_after` (§5.5); consumers warn or refuse to serve it (§10.5). `now` is " +
		"`--now`, else `OKF_NOW`, else the clock (D11). Re-verify the content and move `stale_after` forward.\n\n" +
		"Bad (with --now 2026-10-01T00:00:00Z):\n\n    stale_after: 2026-09-23T00:00:00Z\n\n" +
		"Good:\n\n    verified: { by: human:ana, at: 2026-09-30T10:00:00Z }\n    stale_after: 2026-12-23T00:00:00Z",
	Check: checkStale}

func checkStale(p *Pass) {
	withFrontmatter(p.Bundle, func(c *okf.Concept, fm *okf.Frontmatter) {
		f := okf.FreshnessOf(fm.StaleAfter(), p.Now, p.ExpiringWithin)
		if !f.Stale {
			return
		}
		// The message holds only facts of the bundle, never the clock: a finding must read the same
		// tomorrow, or baselines and SARIF fingerprints would churn every day.
		p.ReportText(at(fm.StaleAfter().Value, fileStart(c)), "concept is stale since "+rfc3339(fm.StaleAfter())+" (stale_after"+
			approxNote(fm.StaleAfter())+"): re-verify it and move stale_after forward (§5.5)")
	})
}
