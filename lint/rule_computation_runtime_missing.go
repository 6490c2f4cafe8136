package lint

import (
	"strings"

	"github.com/okf-tools/okf/okf"
)

// ComputationRuntimeMissing reports an Attested Computation without `runtime`, REQUIRED for the type
// (§10.2): it says how to run the computation and what `parameters` mean. A REQUIRED field in an
// optional family is a warning (D1, D17).
var ComputationRuntimeMissing = &Rule{Code: "OKF701", Name: "computation-runtime-missing", Severity: okf.Warning, Spec: "§10.2", Decision: "D17", Scope: ScopeConcept,
	Title: "attested computation without runtime",
	Doc: "`runtime` is REQUIRED for `type: Attested Computation` (§10.2): it says how to run the computation, how the " +
		"executor and attester interpret it, and what `parameters` mean (a SQL bind variable, a dbt var, a Python " +
		"argument).\n\n" +
		"Bad:\n\n    type: Attested Computation\n    parameters:\n      - { name: year, type: integer, required: true }\n\n" +
		"Good:\n\n    type: Attested Computation\n    runtime: bigquery\n    parameters:\n      - { name: year, type: integer, required: true }",
	Check: checkComputationRuntimeMissing}

func checkComputationRuntimeMissing(p *Pass) {
	withFrontmatter(p.Bundle, func(c *okf.Concept, fm *okf.Frontmatter) {
		if !isAttestedComputation(fm) {
			return
		}
		rt := fm.Runtime()
		switch {
		case !rt.Present():
			p.Reportf(fileStart(c), "attested computation has no runtime: add one, for example runtime: bigquery (§10.2, REQUIRED)")
		case !rt.IsString() || strings.TrimSpace(rt.Raw) == "":
			p.Reportf(at(rt, fileStart(c)), "runtime must name how the computation runs, for example bigquery, dbt or python, found %s (§10.2)", rt.Describe())
		}
	})
}
