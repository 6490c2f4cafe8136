package lint

import (
	"strconv"

	"github.com/okf-tools/okf/okf"
)

// StatusUnknown reports a `status` other than draft, stable or deprecated (§5.4). D13 treats it as
// stable, which may hide a deprecation written as "retired" or "obsolete".
var StatusUnknown = &Rule{Code: "OKF401", Name: "status-unknown", Severity: okf.Warning, Spec: "§5.4", Decision: "D13",
	Title: "status is not draft, stable or deprecated",
	Doc: "`status` is one of `draft`, `stable`, `deprecated` (§5.4); absent means stable. Any other value is treated as " +
		"stable (D13), so a concept meant to be retired keeps being served as current.\n\n" +
		"Bad:\n\n    status: active\n    status: retired\n\n" +
		"Good:\n\n    status: stable\n    status: deprecated",
	Check: checkStatusUnknown}

func checkStatusUnknown(p *Pass) {
	withFrontmatter(p.Bundle, func(c *okf.Concept, fm *okf.Frontmatter) {
		if _, known := okf.StatusOf(fm.Status); known {
			return
		}
		v := fm.Status
		if v.Kind == okf.Scalar {
			p.ReportText(at(v, fileStart(c)), "status "+strconv.Quote(v.Raw)+" is not draft, stable or deprecated: treated as stable (§5.4, D13)")
			return
		}
		p.Reportf(at(v, fileStart(c)), "status must be draft, stable or deprecated, found %s: treated as stable (§5.4, D13)", v.Describe())
	})
}
