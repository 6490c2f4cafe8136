package lint

import (
	"strings"

	"github.com/okf-tools/okf/okf"
)

// ReceiptNotList reports an Attested Computation whose `executor.receipt` does not list the fields a
// run must return (§10.2, D17): the evidence the attester inspects.
var ReceiptNotList = &Rule{Code: "OKF706", Name: "receipt-not-list", Severity: okf.Warning, Spec: "§10.2", Decision: "D17", Scope: ScopeConcept,
	Title: "executor.receipt is not a list of field names",
	Doc: "`executor.receipt` declares the fields a run must return, the evidence the attester inspects (§10.2), for " +
		"example a BigQuery `job_id` and the SQL the job actually executed. It should be a list of field names (D17).\n\n" +
		"Bad:\n\n    executor:\n      resource: /skills/run-on-bq.md\n      receipt: job id and sql\n\n" +
		"Good:\n\n    executor:\n      resource: /skills/run-on-bq.md\n      receipt: [job_id, executed_sql, result]",
	Check: checkReceiptNotList}

func checkReceiptNotList(p *Pass) {
	withFrontmatter(p.Bundle, func(c *okf.Concept, fm *okf.Frontmatter) {
		e := fm.Executor()
		if e == nil || !isAttestedComputation(fm) {
			return
		}
		r := e.Receipt
		switch {
		case e.Kind != okf.Mapping:
			p.Reportf(at(e.Value, fileStart(c)), "executor must be a mapping { resource, receipt }, found %s (§10.2)", e.Describe())
		case !r.Present():
			p.Reportf(at(e.Value, fileStart(c)), "executor has no receipt: list the fields a run must return, for example receipt: [job_id, executed_sql, result] (§10.2)")
		case r.Kind != okf.Sequence:
			p.Reportf(at(r.Value, fileStart(c)), "executor.receipt must be a list of field names, found %s (§10.2)", r.Describe())
		case len(r.Items) == 0:
			p.Reportf(at(r.Value, fileStart(c)), "executor.receipt is an empty list: name the fields a run must return (§10.2)")
		default:
			for i, it := range r.Items {
				if !it.IsString() || strings.TrimSpace(it.Raw) == "" {
					p.Reportf(at(it, r.Pos), "executor.receipt[%d] must be a field name, found %s (§10.2)", i, it.Describe())
				}
			}
		}
	})
}
