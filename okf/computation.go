package okf

import (
	"strings"
)

// What an Attested Computation's contract means (§10, D17), shared by lint and attest: which
// concepts carry one and which code blocks are the computation. Which runtimes are SQL and where
// the placeholders are is internal/sqllex's.

// TypeAttestedComputation is the `type` of a computation concept (§10.1).
const TypeAttestedComputation = "Attested Computation"

// IsAttestedComputation reports whether a concept's type is Attested Computation (§10.1). Case and
// surrounding space are forgiven, as everywhere okf compares types: type values are not
// registered (§4.1), and lint, attest and trust must agree on which concepts carry a contract.
func IsAttestedComputation(fm *Frontmatter) bool {
	return fm.Type.IsString() && strings.EqualFold(strings.TrimSpace(fm.Type.Raw), TypeAttestedComputation)
}

// ComputationBlocks returns the code blocks (fenced or indented: §10.2's own example is indented)
// that sit under a `# Computation` heading, at any depth below it (§10.3).
func ComputationBlocks(c *Concept) []CodeBlock {
	var out []CodeBlock
	for _, cb := range c.Body.CodeBlocks {
		for _, s := range cb.Sections {
			if strings.EqualFold(strings.TrimSpace(s), "computation") {
				out = append(out, cb)
				break
			}
		}
	}
	return out
}
