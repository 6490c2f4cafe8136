package lint

import (
	"strings"

	"github.com/okf-tools/okf/okf"
)

// FieldNotString reports `title`, `description` or `resource` written as something other than a
// non-empty string: a number, list, mapping, null or "". Consumers display and follow these as
// text (§4.1); a wrong shape is a warning (D1).
var FieldNotString = &Rule{Code: "OKF105", Name: "field-not-string", Severity: okf.Warning, Spec: "§4.1", Scope: ScopeConcept,
	Title: "title, description or resource is not a non-empty string",
	Doc: "`title`, `description` and `resource` are text (§4.1). YAML reads an unquoted `2024` as a number, " +
		"`true` as a boolean and an empty value as null; quote such values or remove the key.\n\n" +
		"Bad:\n\n    title: 2024\n    description:\n\n" +
		"Good:\n\n    title: \"2024\"\n    description: Orders placed in 2024.",
	Check: checkFieldNotString}

func checkFieldNotString(p *Pass) {
	withFrontmatter(p.Bundle, func(c *okf.Concept, fm *okf.Frontmatter) {
		for _, f := range []struct {
			name string
			v    okf.Value
		}{{"title", fm.Title}, {"description", fm.Description}, {"resource", fm.Resource}} {
			v := f.v
			switch {
			case !v.Present():
			case v.IsString() && v.Raw != "" && strings.TrimSpace(v.Raw) == "":
				p.Reportf(at(v, fileStart(c)), "%s is blank (only whitespace): write a value or remove the key (§4.1)", f.name)
			case v.IsString() && v.Raw == "":
				p.Reportf(at(v, fileStart(c)), "%s is an empty string: write a value or remove the key (§4.1)", f.name)
			case v.IsString():
			case v.Kind == okf.Null:
				p.Reportf(at(v, fileStart(c)), "%s is empty (null): write a value or remove the key (§4.1)", f.name)
			case v.Kind == okf.Scalar:
				p.Reportf(at(v, fileStart(c)), "%s must be a string, found %s: quote it, %s: %q (§4.1)", f.name, v.Describe(), f.name, v.Raw)
			default:
				p.Reportf(at(v, fileStart(c)), "%s must be a string, found %s (§4.1)", f.name, v.Describe())
			}
		}
	})
}
