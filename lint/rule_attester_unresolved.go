package lint

import (
	"strings"

	"github.com/okf-tools/okf/okf"
)

// AttesterUnresolved reports an Attested Computation whose `attester.resource` is missing or names a
// bundle file that does not exist (§10.2, D17). The attester is the deterministic check a consumer
// runs; without it nothing can be attested. A URL is not checked (D14); a path leaving the bundle is
// path-escapes.
var AttesterUnresolved = &Rule{Code: "OKF707", Name: "attester-unresolved", Severity: okf.Warning, Spec: "§10.2", Decision: "D17", Scope: ScopeConcept,
	Title: "attester.resource does not resolve inside the bundle",
	Doc: "`attester.resource` names the deterministic code (no LLM) that takes a receipt and returns a verdict " +
		"(§10.2). It should resolve to a file inside the bundle (D17), conventionally under `references/` (§6.3).\n\n" +
		"Bad:\n\n    attester:\n      resource: /references/attesters/revenue.py   # no such file\n\n" +
		"Good:\n\n    attester:\n      resource: /references/attesters/revenue.py   # present in the bundle",
	Check: checkAttesterUnresolved}

func checkAttesterUnresolved(p *Pass) {
	withFrontmatter(p.Bundle, func(c *okf.Concept, fm *okf.Frontmatter) {
		a := fm.Attester()
		if a == nil || !isAttestedComputation(fm) {
			return
		}
		res := a.Resource
		switch {
		case a.Kind != okf.Mapping:
			p.Reportf(at(a.Value, fileStart(c)), "attester must be a mapping { resource }, found %s (§10.2)", a.Describe())
		case !res.IsString() || strings.TrimSpace(res.Raw) == "":
			p.Reportf(at(res, at(a.Value, fileStart(c))), "attester has no resource: name the file of the deterministic check, for example resource: /references/attesters/revenue.py (§10.2)")
		default:
			r := p.Bundle.ResolvePath(c.Path, res.Raw)
			if why := hiddenReason(r.Target); r.Kind == okf.RefLocal && !r.Escapes && !r.Exists && why != "" {
				p.Reportf(at(res, fileStart(c)), "attester.resource %q is hidden: %s: the computation cannot be attested (§10.2, D17)", res.Raw, why)
			} else if r.Kind == okf.RefLocal && !r.Escapes && !r.Exists {
				p.Reportf(at(res, fileStart(c)), "attester.resource %q does not exist in the bundle (%s): the computation cannot be attested (§10.2, D17)", res.Raw, lookedFor(p.Bundle, c.Path, res.Raw, r))
			} else if r.Kind == okf.RefLocal && r.IsDir {
				p.Reportf(at(res, fileStart(c)), "attester.resource %q is a folder: name the attester's file (§10.2, D17)", res.Raw)
			}
		}
	})
}
