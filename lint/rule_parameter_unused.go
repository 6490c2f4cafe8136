package lint

import (
	"strings"

	"github.com/okf-tools/okf/okf"
)

// ParameterUnused reports a declared parameter the computation never binds (§10.2, D17): a hole the
// agent can fill that changes nothing, usually a renamed placeholder.
var ParameterUnused = &Rule{Code: "OKF705", Name: "parameter-unused", Severity: okf.Warning, Spec: "§10.2", Decision: "D17", Scope: ScopeConcept,
	Title: "declared parameter never used by the computation",
	Doc: "Each parameter is a named hole in the computation (§10.2); binding semantics follow `runtime`. A declared " +
		"parameter the computation never references (`@name` for SQL runtimes, `var('name')` for dbt) is dead or " +
		"misspelled (D17). Runtimes okf cannot read placeholders for (python, Looker) are not checked.\n\n" +
		"Bad:\n\n    runtime: bigquery\n    parameters:\n      - { name: fiscal_year, type: integer, required: true }\n    ---\n    # Computation\n\n    ```sql\n    SELECT SUM(amount) FROM t WHERE fiscal_year = @year\n    ```\n\n" +
		"Good:\n\n    parameters:\n      - { name: year, type: integer, required: true }",
	Check: checkParameterUnused}

func checkParameterUnused(p *Pass) {
	withFrontmatter(p.Bundle, func(c *okf.Concept, fm *okf.Frontmatter) {
		ct, syntax, ok := boundComputation(p.Bundle, c, fm)
		if !ok {
			return
		}
		used := map[string]bool{}
		for _, ph := range placeholders(ct.text, fm.Runtime()) {
			used[ph.name] = true
		}
		for i, it := range fm.Parameters().Items {
			name := strings.TrimSpace(it.Name.Text())
			if name == "" || used[name] {
				continue
			}
			written := writtenAs(syntax, name)
			where := "the # Computation block"
			if ct.file != "" {
				where = "/" + ct.file
			}
			p.Reportf(at(it.Name, fileStart(c)), "parameters[%d] %q is never used: %s does not contain %s; remove the parameter or bind it (§10.2)", i, name, where, written)
		}
	})
}
