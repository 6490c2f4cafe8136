package lint

import "github.com/okf-tools/okf/okf"

// UsageCountNotInteger reports a `usage_count` that is not a non-negative integer: it counts how
// often a resource was exercised (§5.1).
var UsageCountNotInteger = &Rule{Code: "OKF507", Name: "usage-count-not-integer", Severity: okf.Warning, Spec: "§5.1", Scope: ScopeConcept,
	Title: "usage_count is not a non-negative integer",
	Doc: "`usage_count` is how often `resource` was exercised over `usage_window` (§5.1): a whole number, zero or more. " +
		"Text such as `\"5k\"` or `many` cannot be compared.\n\n" +
		"Bad:\n\n    usage_count: 5k\n\n" +
		"Good:\n\n    usage_count: 5000",
	Check: checkUsageCountNotInteger}

func checkUsageCountNotInteger(p *Pass) {
	withFrontmatter(p.Bundle, func(c *okf.Concept, fm *okf.Frontmatter) {
		for i, s := range fm.Sources.Items {
			v := s.UsageCount
			if !v.Present() {
				continue
			}
			if n, ok := v.Int(); ok && n >= 0 {
				continue
			}
			if v.Kind == okf.Scalar {
				p.Reportf(at(v, fileStart(c)), "sources[%d].usage_count must be a non-negative integer, found %s (§5.1)", i, fmtQuoted(v.Describe(), v.Raw))
				continue
			}
			p.Reportf(at(v, fileStart(c)), "sources[%d].usage_count must be a non-negative integer, found %s (§5.1)", i, v.Describe())
		}
	})
}
