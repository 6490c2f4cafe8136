package lint

import (
	"strings"

	"github.com/okf-tools/okf/okf"
)

// ParameterIncomplete reports `parameters` that are not a list of `{ name, type, required }` entries
// (§10.2, D17): the typed, named holes the agent may fill. An untyped or unnamed hole is not a
// contract.
var ParameterIncomplete = &Rule{Code: "OKF703", Name: "parameter-incomplete", Severity: okf.Warning, Spec: "§10.2", Decision: "D17", Scope: ScopeConcept,
	Title: "parameters entry without name, type or required",
	Doc: "`parameters` lists the typed, named holes the agent may fill, each `{ name, type, required }` (§10.2). `name` " +
		"is a string, `type` names the value's type, `required` is true or false; names are unique.\n\n" +
		"Bad:\n\n    parameters:\n      - { name: year }\n      - year\n\n" +
		"Good:\n\n    parameters:\n      - { name: year, type: integer, required: true }",
	Check: checkParameterIncomplete}

func checkParameterIncomplete(p *Pass) {
	withFrontmatter(p.Bundle, func(c *okf.Concept, fm *okf.Frontmatter) {
		ps := fm.Parameters()
		if !ps.Present() || !isAttestedComputation(fm) {
			return
		}
		if ps.Kind != okf.Sequence {
			p.Reportf(at(ps.Value, fileStart(c)), "parameters must be a list of { name, type, required } entries, found %s (§10.2)", ps.Describe())
			return
		}
		seen := make(map[string]int, len(ps.Items))
		for i, it := range ps.Items {
			pos := at(it.Value, ps.Pos)
			if it.Kind != okf.Mapping {
				p.Reportf(pos, "parameters[%d] must be a mapping { name, type, required }, found %s (§10.2)", i, it.Describe())
				continue
			}
			var missing []string
			for _, f := range []struct {
				name string
				v    okf.Value
			}{{"name", it.Name}, {"type", it.Type}, {"required", it.Required}} {
				if !f.v.Present() || f.v.Kind == okf.Null || f.v.Kind == okf.Scalar && strings.TrimSpace(f.v.Raw) == "" {
					missing = append(missing, f.name)
				}
			}
			if len(missing) > 0 {
				p.Reportf(pos, "parameters[%d] has no %s: each parameter is { name, type, required } (§10.2)", i, strings.Join(missing, " or "))
			}
			if it.Name.Present() && it.Name.Kind != okf.Null && !it.Name.IsString() {
				p.Reportf(at(it.Name, pos), "parameters[%d].name must be a string, found %s (§10.2)", i, it.Name.Describe())
			}
			if it.Required.Kind == okf.Scalar && strings.TrimSpace(it.Required.Raw) != "" {
				if _, ok := it.Required.Bool(); !ok {
					p.Reportf(at(it.Required, pos), "parameters[%d].required must be true or false, found %s (§10.2)", i, fmtQuoted(it.Required.Describe(), it.Required.Raw))
				}
			}
			if name := strings.TrimSpace(it.Name.Text()); name != "" {
				if j, dup := seen[name]; dup {
					p.Reportf(at(it.Name, pos), "parameters[%d].name %q is already declared by parameters[%d]: each parameter needs its own name (§10.2)", i, name, j)
				} else {
					seen[name] = i
				}
			}
		}
	})
}
