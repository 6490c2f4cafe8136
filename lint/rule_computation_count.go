package lint

import (
	"fmt"

	"github.com/okf-tools/okf/okf"
)

// ComputationCount reports an Attested Computation without exactly one computation (§10.3, D17):
// neither a code block under `# Computation` nor a `computation` path, both, or several blocks. The
// attester compares a run against one sanctioned computation; zero or two leave it undefined.
var ComputationCount = &Rule{Code: "OKF702", Name: "computation-count", Severity: okf.Warning, Spec: "§10.3", Decision: "D17", Scope: ScopeConcept,
	Title: "attested computation without exactly one computation",
	Doc: "Provide the computation one way (§10.3): a single code block under `# Computation`, or `computation` set to a " +
		"path and no body block. Neither, both, or several blocks leave \"the sanctioned computation\" undefined (D17).\n\n" +
		"Bad:\n\n    computation: references/computations/revenue.sql\n    ---\n    # Computation\n\n    ```sql\n    SELECT SUM(amount) FROM finance.revenue\n    ```\n\n" +
		"Good:\n\n    computation: /references/computations/revenue.sql\n    ---\n    # Notes\n\n    Binds only the declared parameters.",
	Check: checkComputationCount}

func checkComputationCount(p *Pass) {
	withFrontmatter(p.Bundle, func(c *okf.Concept, fm *okf.Frontmatter) {
		if !isAttestedComputation(fm) {
			return
		}
		blocks := okf.ComputationBlocks(c)
		path := fm.Computation().Present()
		switch {
		case path && len(blocks) > 0:
			p.Reportf(blocks[0].Pos, "computation is given twice: computation: %q and %s under # Computation; keep one (§10.3)", fm.Computation().Raw, blockCount(len(blocks)))
		case !path && len(blocks) == 0:
			p.Reportf(fileStart(c), "attested computation has no computation: add one code block under # Computation, or set computation to a file path (§10.3)")
		case len(blocks) > 1:
			p.Reportf(blocks[1].Pos, "%d code blocks under # Computation, expected one: the sanctioned computation must be a single block (§10.3)", len(blocks))
		}
	})
}

// blockCount renders "a code block" or "3 code blocks".
func blockCount(n int) string {
	if n == 1 {
		return "a code block"
	}
	return fmt.Sprintf("%d code blocks", n)
}
