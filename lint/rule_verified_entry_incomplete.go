package lint

import (
	"fmt"
	"strings"

	"github.com/okf-tools/okf/okf"
)

// VerifiedEntryIncomplete reports a verification event without `by` or without `at` (§5.2). An
// entry without `by` does not count toward the trust tier (D12); one without `at` cannot say how
// recent the check was.
var VerifiedEntryIncomplete = &Rule{Code: "OKF303", Name: "verified-entry-incomplete", Severity: okf.Warning, Spec: "§5.2", Decision: "D12", Scope: ScopeConcept,
	Title: "verified entry without by or at",
	Doc: "Each `verified` entry has `by` (an actor, §7) and `at` (an ISO 8601 datetime) (§5.2). Without `by` the " +
		"entry does not count toward the trust tier (D12); without `at`, \"how recently\" cannot be answered.\n\n" +
		"Bad:\n\n    verified:\n      - { by: human:ahormati }\n      - { at: 2026-06-26T02:00:00Z }\n\n" +
		"Good:\n\n    verified:\n      - { by: human:ahormati, at: 2026-06-25T09:00:00Z }\n      - { by: process:finance-nightly, at: 2026-06-26T02:00:00Z }",
	Check: checkVerifiedEntryIncomplete}

func checkVerifiedEntryIncomplete(p *Pass) {
	withFrontmatter(p.Bundle, func(c *okf.Concept, fm *okf.Frontmatter) {
		v := fm.Verified
		// Items, not Entries: in a list with a malformed item (verified-invalid's finding) the
		// other entries are still checked.
		for i, e := range v.Items {
			if e.Kind != okf.Mapping {
				continue
			}
			name := fmt.Sprintf("verified[%d]", i)
			if v.Shape == okf.VerifiedMapping {
				name = "verified"
			}
			pos := at(e.Value, at(v.Value, fileStart(c)))
			switch {
			case !e.By.Present():
				p.Reportf(pos, "%s has no by: the entry does not count toward the trust tier; add the actor who verified it (§5.2, D12)", name)
			case e.By.Kind != okf.Scalar || strings.TrimSpace(e.By.Raw) == "":
				p.Reportf(at(e.By, pos), "%s.by is %s: the entry does not count toward the trust tier; name the actor who verified it (§5.2, D12)", name, e.By.Describe())
			}
			if e.At.Form == okf.TimeAbsent {
				p.Reportf(pos, "%s has no at: add when it was verified, for example at: 2026-06-25T09:00:00Z (§5.2)", name)
			}
		}
	})
}
