package lint

import "github.com/okf-tools/okf/okf"

// ComputationFileMissing reports a `computation` path that names no file of the bundle (§10.3): the
// sanctioned computation cannot be loaded. A URL is not checked (D14); a path leaving the bundle is
// path-escapes.
var ComputationFileMissing = &Rule{Code: "OKF708", Name: "computation-file-missing", Severity: okf.Warning, Spec: "§10.3", Decision: "D17", Scope: ScopeConcept,
	Title: "computation path names no file",
	Doc: "`computation` is a path (§6.2) to the file holding the computation, used instead of a body block (§10.3). " +
		"When nothing is there, consumers have nothing to bind and the attester nothing to compare against.\n\n" +
		"Bad:\n\n    computation: /references/computations/revenu.sql\n\n" +
		"Good:\n\n    computation: /references/computations/revenue.sql",
	Check: checkComputationFileMissing}

func checkComputationFileMissing(p *Pass) {
	withFrontmatter(p.Bundle, func(c *okf.Concept, fm *okf.Frontmatter) {
		v := fm.Computation()
		if !v.Present() || !isAttestedComputation(fm) {
			return
		}
		if !v.IsString() {
			p.Reportf(at(v, fileStart(c)), "computation must be a path to the computation's file, found %s (§10.3)", v.Describe())
			return
		}
		r := p.Bundle.ResolvePath(c.Path, v.Raw)
		switch {
		case r.Kind == okf.RefEmpty:
			p.Reportf(at(v, fileStart(c)), "computation is empty: name the computation's file, or remove the key and put the computation under # Computation (§10.3)")
		case r.Kind != okf.RefLocal || r.Escapes:
		case !r.Exists && hiddenReason(r.Target) != "":
			p.Reportf(at(v, fileStart(c)), "computation %q is hidden: %s; move the file into the bundle (§10.3)", v.Raw, hiddenReason(r.Target))
		case !r.Exists:
			p.Reportf(at(v, fileStart(c)), "computation %q does not exist in the bundle (%s) (§10.3)", v.Raw, lookedFor(p.Bundle, c.Path, v.Raw, r))
		case r.IsDir:
			p.Reportf(at(v, fileStart(c)), "computation %q is a folder: name the computation's file (§10.3)", v.Raw)
		}
	})
}
