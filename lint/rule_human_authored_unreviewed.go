package lint

import (
	"strings"

	"github.com/okf-tools/okf/okf"
)

// HumanAuthoredUnreviewed reports a concept a person wrote (`generated.by: human:…`) that no `human:`
// actor has verified. Tiers come from `verified` only (§5.3), so a hand-written concept with no
// verification reads as unverified or machine-confirmed; usually the author's review was simply not
// recorded. Convention (D1: info).
var HumanAuthoredUnreviewed = &Rule{Code: "OKF307", Name: "human-authored-unreviewed", Severity: okf.Info, Spec: "§5.3", Decision: "D12", Scope: ScopeConcept,
	Title: "human-authored concept without a human: verification",
	Doc: "Trust tiers are derived from `verified` alone (§5.3): a concept written by `human:<id>` but never verified by a " +
		"`human:` actor is not human-reviewed. If the author (or another person) checked it, record it.\n\n" +
		"Bad:\n\n    generated: { by: human:ahormati, at: 2026-04-12T09:00:00Z }\n\n" +
		"Good:\n\n    generated: { by: human:ahormati, at: 2026-04-12T09:00:00Z }\n    verified: { by: human:ahormati, at: 2026-04-12T09:00:00Z }",
	Check: checkHumanAuthoredUnreviewed}

func checkHumanAuthoredUnreviewed(p *Pass) {
	withFrontmatter(p.Bundle, func(c *okf.Concept, fm *okf.Frontmatter) {
		g := fm.Generated
		if g == nil || g.By.Kind != okf.Scalar || okf.ClassifyActor(g.By.Raw) != okf.ActorHuman {
			return
		}
		tier := okf.TierOf(fm.Verified)
		if tier == okf.HumanReviewed {
			return
		}
		by := strings.TrimSpace(g.By.Raw)
		p.Reportf(at(g.By, fileStart(c)), "written by %q but verified by no human: actor, so its trust tier is %s: if a person reviewed it, add verified: { by: %s, at: <when> } (§5.3)", by, tier, by)
	})
}
