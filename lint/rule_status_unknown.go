package lint

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/okf-tools/okf/okf"
)

// StatusUnknown reports a `status` other than draft, stable or deprecated (§5.4). D13 treats it as
// stable, which may hide a deprecation written as "retired" or "obsolete".
//
// `status` got its lifecycle meaning in v0.2 (§13.2). A bundle that declares okf_version "0.1",
// or declares nothing and writes no field v0.2 added, wrote its `status` before that: a producer
// key (§4.1), often the same value on every file (`status: active` on 3,492 of 3,509 files of a
// real bundle). There the rule reports once for the bundle, at info, instead of a warning per file.
var StatusUnknown = &Rule{Code: "OKF401", Name: "status-unknown", Severity: okf.Warning, Spec: "§5.4", Decision: "D13", Scope: ScopeBundle, reads: []factRef{factStatus, factPresent, factV02},
	Title: "status is not draft, stable or deprecated",
	Doc: "`status` is one of `draft`, `stable`, `deprecated` (§5.4); absent means stable. Any other value is treated as " +
		"stable (D13), so a concept meant to be retired keeps being served as current.\n\n" +
		"`status` is one of the keys v0.2 added (§13.2). In a bundle that declares `okf_version: \"0.1\"`, or declares " +
		"no version and writes no v0.2 field (`generated`, `verified`, `sources`, `stale_after`, a v0.2 status...), " +
		"`status` is the producer's own key (§4.1): the bundle gets one info finding naming the values, not a warning " +
		"per file. Declaring `okf_version: \"0.2\"` has every value checked.\n\n" +
		"Bad (in a v0.2 bundle):\n\n    status: active\n    status: retired\n\n" +
		"Good:\n\n    status: stable\n    status: deprecated",
	Check: checkStatusUnknown}

// factStatus: the concept's `status` when v0.2 does not define it, and the message about it; nil
// for most concepts.
var factStatus = &fact[*unknownStatus]{name: "status", doc: "the concept's `status` when v0.2 does not define it (nil otherwise)",
	of: func(in *factInput) *unknownStatus {
		if !in.fm.Present {
			return nil
		}
		return statusFact(in.c, in.fm)
	}}

// unknownStatus is a concept's `status` v0.2 does not define: where, its value as written ("" when
// it is no scalar), and the status-unknown message about it.
type unknownStatus struct {
	pos okf.Position
	raw string
	msg string
}

// statusFact returns the concept's `status` when v0.2 does not define it, else nil.
func statusFact(c *okf.Concept, fm *okf.Frontmatter) *unknownStatus {
	if _, known := okf.StatusOf(fm.Status); known {
		return nil
	}
	v := fm.Status
	pos := at(v, fileStart(c))
	if v.Kind == okf.Scalar {
		return &unknownStatus{pos: pos, raw: v.Raw, msg: "status " + quote(v.Raw) + " is not draft, stable or deprecated: treated as stable (§5.4, D13)"}
	}
	return &unknownStatus{pos: pos, msg: fmt.Sprintf("status must be draft, stable or deprecated, found %s: treated as stable (§5.4, D13)", v.Describe())}
}

// statusValuesNamed is how many distinct values the bundle-level finding names.
const statusValuesNamed = 3

func checkStatusUnknown(p *Pass) {
	statuses := factStatus.all(p)
	v02, why := declaresV02(p)
	if v02 {
		for _, s := range statuses {
			if s != nil {
				p.ReportText(s.pos, s.msg)
			}
		}
		return
	}
	n := 0
	var first okf.Position
	var values []string
	seen := map[string]bool{}
	for _, s := range statuses {
		if s == nil {
			continue
		}
		if n == 0 {
			first = s.pos
		}
		n++
		if v := s.raw; v != "" && !seen[v] && len(values) < statusValuesNamed {
			seen[v] = true
			values = append(values, quote(v))
		}
	}
	if n == 0 {
		return
	}
	named := ""
	if len(values) > 0 {
		named = " such as " + strings.Join(values, ", ")
	}
	p.Report(okf.Diagnostic{Pos: first, Code: p.Rule.Code, Severity: okf.Info, Message: fmt.Sprintf(
		"status is a producer key in this bundle, not the v0.2 lifecycle: %s; %s a status%s that v0.2 does not define, read as stable; "+
			"declare okf_version \"0.2\" in the root index.md to have status checked (§5.4, §13.2)", why, haveCount(n), named)})
}

func haveCount(n int) string {
	if n == 1 {
		return "1 concept has"
	}
	return strconv.Itoa(n) + " concepts have"
}
