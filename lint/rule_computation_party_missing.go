package lint

import "github.com/okf-tools/okf/okf"

// ComputationPartyMissing reports an Attested Computation without `executor` or without `attester`
// (§10.2, D17: warning). The contract is how the computation is run and how its result is checked:
// without an executor a runner has nothing to follow, without an attester nothing can be attested.
var ComputationPartyMissing = &Rule{Code: "OKF711", Name: "computation-party-missing", Severity: okf.Warning, Spec: "§10.2", Decision: "D17", Scope: ScopeConcept,
	Title: "attested computation without executor or attester",
	Doc: "An Attested Computation carries an `executor` (how the computation is run, and the receipt a run returns) " +
		"and an `attester` (the deterministic check of that receipt) (§10.2). Without the executor a runner has no " +
		"instructions; without the attester no result can be attested (D17).\n\n" +
		"Bad:\n\n    type: Attested Computation\n    runtime: bigquery\n\n" +
		"Good:\n\n    type: Attested Computation\n    runtime: bigquery\n    executor:\n      resource: /references/skills/run-on-bq.md\n" +
		"      receipt: [job_id, executed_sql, result]\n    attester:\n      resource: /references/attesters/revenue.py",
	Check: checkComputationPartyMissing}

func checkComputationPartyMissing(p *Pass) {
	withFrontmatter(p.Bundle, func(c *okf.Concept, fm *okf.Frontmatter) {
		if !isAttestedComputation(fm) {
			return
		}
		pos := fm.KeyPos("type")
		if fm.Executor() == nil {
			p.Reportf(pos, "attested computation has no executor: say how it is run, for example executor: { resource: /references/skills/run-on-bq.md, receipt: [job_id, executed_sql, result] } (§10.2, D17)")
		}
		if fm.Attester() == nil {
			p.Reportf(pos, "attested computation has no attester: nothing can check its result; add attester: { resource: /references/attesters/revenue.py } (§10.2, D17)")
		}
	})
}
