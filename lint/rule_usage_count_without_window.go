package lint

import "github.com/okf-tools/okf/okf"

// UsageCountWithoutWindow reports a `usage_count` with no `usage_window` to frame it (§5.1): a count
// of "5000" over an unknown period says nothing about liveness.
var UsageCountWithoutWindow = &Rule{Code: "OKF506", Name: "usage-count-without-window", Severity: okf.Warning, Spec: "§5.1", Scope: ScopeConcept,
	Title: "usage_count without a usage_window",
	Doc: "`usage_window`, written once as a sibling of `sources` (or on one entry to override it), frames every " +
		"`usage_count` with a `{ from, to }` range (§5.1). Without it the count has no period.\n\n" +
		"Bad:\n\n    sources:\n      - { resource: https://bi.acme/dash/42, usage_count: 5000 }\n\n" +
		"Good:\n\n    sources:\n      - { resource: https://bi.acme/dash/42, usage_count: 5000 }\n    usage_window: { from: 2026-06-01T00:00:00Z, to: 2026-06-30T00:00:00Z }",
	Check: checkUsageCountWithoutWindow}

func checkUsageCountWithoutWindow(p *Pass) {
	withFrontmatter(p.Bundle, func(c *okf.Concept, fm *okf.Frontmatter) {
		if fm.UsageWindow() != nil {
			return
		}
		for i, s := range fm.Sources.Items {
			if s.UsageCount.Present() && s.UsageWindow == nil {
				p.Reportf(at(s.UsageCount, fileStart(c)), "sources[%d].usage_count has no usage_window: add usage_window: { from, to } next to sources, or on the entry (§5.1)", i)
			}
		}
	})
}
