package lint

import (
	"strings"

	"github.com/okf-tools/okf/okf"
)

// ComputationFieldsElsewhere reports `runtime`, `executor` or `attester` on a concept whose type is
// not Attested Computation (info). §10.2 defines them as the contract of that type only: on any
// other concept no consumer reads them, which usually means the type is misspelled or the concept
// was copied from a computation.
var ComputationFieldsElsewhere = &Rule{Code: "OKF710", Name: "computation-fields-elsewhere", Severity: okf.Info, Spec: "§10.2",
	Title: "runtime, executor or attester on a concept that is not an attested computation",
	Doc: "`runtime`, `executor` and `attester` are the contract fields of `type: Attested Computation` (§10.2). On a " +
		"concept of another type nothing reads them: either the type should be Attested Computation, or the fields " +
		"can go.\n\n" +
		"Bad:\n\n    type: Metric\n    runtime: bigquery\n    attester:\n      resource: /references/attesters/revenue.py\n\n" +
		"Good:\n\n    type: Attested Computation\n    runtime: bigquery\n    attester:\n      resource: /references/attesters/revenue.py",
	Check: checkComputationFieldsElsewhere}

func checkComputationFieldsElsewhere(p *Pass) {
	withFrontmatter(p.Bundle, func(c *okf.Concept, fm *okf.Frontmatter) {
		if !c.Conformant() || isAttestedComputation(fm) {
			return // a missing or malformed type is a conformance error already
		}
		for _, k := range fm.Keys {
			switch k.Name {
			case "runtime", "executor", "attester":
				p.Reportf(k.Pos, "%s is a field of Attested Computation concepts (§10.2), but this concept's type is %q: nothing reads it; set type: %s or remove the key",
					k.Name, strings.TrimSpace(fm.Type.Raw), okf.TypeAttestedComputation)
			}
		}
	})
}

// ComputationPartyMissing reports an Attested Computation without `executor` or without `attester`
// (§10.2, D17: warning). The contract is how the computation is run and how its result is checked:
// without an executor a runner has nothing to follow, without an attester nothing can be attested.
var ComputationPartyMissing = &Rule{Code: "OKF711", Name: "computation-party-missing", Severity: okf.Warning, Spec: "§10.2", Decision: "D17",
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
