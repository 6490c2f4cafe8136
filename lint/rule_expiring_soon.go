package lint

import (
	"fmt"
	"time"

	"github.com/okf-tools/okf/okf"
)

// ExpiringSoon reports a concept whose `stale_after` falls within the expiring window after now
// (D11, default 30 days), so a team can re-verify before consumers start refusing it. Info.
var ExpiringSoon = &Rule{Code: "OKF403", Name: "expiring-soon", Severity: okf.Info, Spec: "§5.5", Decision: "D11", Scope: ScopeConcept,
	Title: "concept becomes stale soon",
	Doc: "\"Expiring soon\" is a `stale_after` within a window after now (D11; 30 days unless " +
		"`--expiring-within` or the configuration says otherwise). Plan the re-verification.\n\n" +
		"Bad (with --now 2026-09-01T00:00:00Z):\n\n    stale_after: 2026-09-23T00:00:00Z\n\n" +
		"Good:\n\n    stale_after: 2026-12-23T00:00:00Z",
	Check: checkExpiringSoon}

func checkExpiringSoon(p *Pass) {
	withFrontmatter(p.Bundle, func(c *okf.Concept, fm *okf.Frontmatter) {
		f := okf.FreshnessOf(fm.StaleAfter(), p.Now, p.ExpiringWithin)
		if !f.Expiring {
			return
		}
		p.Reportf(at(fm.StaleAfter().Value, fileStart(c)), "concept becomes stale at %s (stale_after%s), within %s of now: plan its re-verification (§5.5, D11)",
			rfc3339(fm.StaleAfter()), approxNote(fm.StaleAfter()), humanDuration(p.ExpiringWithin))
	})
}

// humanDuration renders a window in days when it is a whole number of days.
func humanDuration(d time.Duration) string {
	if d > 0 && d%(24*time.Hour) == 0 {
		if days := d / (24 * time.Hour); days == 1 {
			return "1 day"
		} else {
			return fmt.Sprintf("%d days", days)
		}
	}
	return d.String()
}
