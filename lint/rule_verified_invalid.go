package lint

import "github.com/okf-tools/okf/okf"

// VerifiedInvalid reports a `verified` value that is neither a `{by, at}` mapping nor a list of
// them. D12 reads it as unverified, which is rarely what the writer of `verified: yes` meant.
var VerifiedInvalid = &Rule{Code: "OKF302", Name: "verified-invalid", Severity: okf.Warning, Spec: "§5.2", Decision: "D12", Scope: ScopeConcept,
	Title: "verified is not a {by, at} mapping or a list of them",
	Doc: "`verified` is a list of verification events `{by, at}`, or a single bare mapping (§5.2). Anything else " +
		"(`yes`, a date, a list of names) says nothing about who checked what and when, and the concept is read as " +
		"unverified (D12).\n\n" +
		"Bad:\n\n    verified: yes\n\n" +
		"Good:\n\n    verified: { by: human:ahormati, at: 2026-06-25T09:00:00Z }",
	Check: checkVerifiedInvalid}

func checkVerifiedInvalid(p *Pass) {
	withFrontmatter(p.Bundle, func(c *okf.Concept, fm *okf.Frontmatter) {
		v := fm.Verified
		if v.Shape != okf.VerifiedInvalid {
			return
		}
		what := v.Describe()
		switch {
		case v.Kind == okf.Sequence:
			what = "a list whose items are not all mappings"
		case v.Kind == okf.Scalar:
			what = fmtQuoted(v.Describe(), v.Raw)
		}
		p.Reportf(at(v.Value, fileStart(c)), "verified must be a { by, at } mapping or a list of them, found %s: read as unverified (§5.2, D12)", what)
	})
}
