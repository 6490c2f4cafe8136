package lint

import (
	"strings"

	"github.com/okf-tools/okf/okf"
)

// ExecutorUnresolved reports an Attested Computation whose `executor.resource` is missing or names a
// bundle file that does not exist (§10.2, D14). The executor's resource is the run instructions or
// code a runner follows; it is a path-valued field (§6.2) resolved like `attester.resource` and
// `computation`. A URL is not checked (D14); a path leaving the bundle is path-escapes; an executor
// that is not a mapping is receipt-not-list's finding.
var ExecutorUnresolved = &Rule{Code: "OKF709", Name: "executor-unresolved", Severity: okf.Warning, Spec: "§10.2", Decision: "D14", Scope: ScopeConcept,
	Title: "executor.resource does not resolve inside the bundle",
	Doc: "`executor.resource` names the run instructions or code a runner follows to run the computation (§10.2). " +
		"It is a path-valued field (§6.2): a local path is resolved like `attester.resource` and `computation` (D14), " +
		"and one that names nothing leaves the runner without instructions. A URL is not checked.\n\n" +
		"Bad:\n\n    executor:\n      resource: /references/skills/run-on-bq.md   # no such file\n      receipt: [job_id, executed_sql, result]\n\n" +
		"Good:\n\n    executor:\n      resource: /references/skills/run-on-bq.md   # present in the bundle\n      receipt: [job_id, executed_sql, result]",
	Check: checkExecutorUnresolved}

func checkExecutorUnresolved(p *Pass) {
	withFrontmatter(p.Bundle, func(c *okf.Concept, fm *okf.Frontmatter) {
		e := fm.Executor()
		if e == nil || e.Kind != okf.Mapping || !isAttestedComputation(fm) {
			return
		}
		res := e.Resource
		if !res.IsString() || strings.TrimSpace(res.Raw) == "" {
			p.Reportf(at(res, at(e.Value, fileStart(c))), "executor has no resource: name the run instructions or code a runner follows, for example resource: /references/skills/run-on-bq.md (§10.2)")
			return
		}
		r := p.Bundle.ResolvePath(c.Path, res.Raw)
		switch {
		case r.Kind != okf.RefLocal || r.Escapes:
		case !r.Exists && hiddenReason(r.Target) != "":
			p.Reportf(at(res, fileStart(c)), "executor.resource %q is hidden: %s: a runner has no instructions to follow (§10.2, D14)", res.Raw, hiddenReason(r.Target))
		case !r.Exists:
			p.Reportf(at(res, fileStart(c)), "executor.resource %q does not exist in the bundle (%s): a runner has no instructions to follow (§10.2, D14)", res.Raw, lookedFor(p.Bundle, c.Path, res.Raw, r))
		}
	})
}
