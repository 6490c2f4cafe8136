package lint

import (
	"strings"

	"github.com/okf-tools/okf/okf"
)

// PlaceholderUndeclared reports a placeholder in the computation that no parameter declares
// (§10.3, D17): `@name` for SQL runtimes, `var('name')` for dbt. The agent may supply values only
// for declared parameters, so an undeclared hole cannot be bound the sanctioned way.
var PlaceholderUndeclared = &Rule{Code: "OKF704", Name: "placeholder-undeclared", Severity: okf.Warning, Spec: "§10.3", Decision: "D17", Scope: ScopeConcept,
	Title: "computation placeholder not declared in parameters",
	Doc: "The agent MAY only supply values for the declared `parameters` (§10.3). A placeholder the computation binds " +
		"(`@name` for SQL runtimes such as bigquery or postgres, `var('name')` for dbt) that no parameter declares " +
		"cannot be filled the sanctioned way (D17). Comments and string literals are not searched; `@@system` " +
		"variables are not placeholders. The computation is read from the `computation` file when set.\n\n" +
		"Bad:\n\n    runtime: bigquery\n    parameters:\n      - { name: year, type: integer, required: true }\n    ---\n    # Computation\n\n    ```sql\n    SELECT SUM(amount) FROM t WHERE fiscal_year = @year AND region = @region\n    ```\n\n" +
		"Good:\n\n    parameters:\n      - { name: year, type: integer, required: true }\n      - { name: region, type: string, required: true }",
	Check: checkPlaceholderUndeclared}

// declaredParameters returns the names of an Attested Computation's parameters.
func declaredParameters(fm *okf.Frontmatter) map[string]bool {
	names := make(map[string]bool, len(fm.Parameters().Items))
	for _, it := range fm.Parameters().Items {
		if n := strings.TrimSpace(it.Name.Text()); n != "" {
			names[n] = true
		}
	}
	return names
}

func checkPlaceholderUndeclared(p *Pass) {
	withFrontmatter(p.Bundle, func(c *okf.Concept, fm *okf.Frontmatter) {
		ct, syntax, ok := boundComputation(p.Bundle, c, fm)
		if !ok {
			return
		}
		declared := declaredParameters(fm)
		reported := map[string]bool{}
		for _, ph := range placeholders(ct.text, fm.Runtime()) {
			if declared[ph.name] || reported[ph.name] {
				continue
			}
			reported[ph.name] = true
			written := writtenAs(syntax, ph.name)
			p.Reportf(ct.pos(c, ph), "placeholder %s%s is not declared in parameters: add - { name: %s, type: <type>, required: <true|false> } (§10.3)", written, ct.where(ph), ph.name)
		}
	})
}
