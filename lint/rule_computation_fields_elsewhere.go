package lint

import (
	"strings"

	"github.com/okf-tools/okf/okf"
)

// ComputationFieldsElsewhere reports `runtime`, `executor` or `attester` on a concept whose type is
// not Attested Computation (info). §10.2 defines them as the contract of that type only: on any
// other concept no consumer reads them, which usually means the type is misspelled or the concept
// was copied from a computation.
var ComputationFieldsElsewhere = &Rule{Code: "OKF710", Name: "computation-fields-elsewhere", Severity: okf.Info, Spec: "§10.2", Scope: ScopeConcept,
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
