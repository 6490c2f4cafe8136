package lint

import "github.com/okf-tools/okf/okf"

// The engine rules, OKF9xx: inline suppressions and the JSON Schema checks. OKF901 (config-invalid)
// and OKF902 (config-unknown-key) are retired: a configuration okf cannot use as written is no
// finding but stops every command (exit 2, okf.ConfigError), so a typo can no longer drop a setting
// while CI passes; their codes are not reused, and a configuration naming them is told so
// (retiredRules).

// Codes of the engine rules that helper functions need before the rule values exist.
const (
	codeSchemaMismatch = "OKF905"
	codeSchemaUnusable = "OKF906"
)

// The engine rules.
var (
	ConfigUnknownRule = &Rule{Code: "OKF903", Name: "unknown-rule", Severity: okf.Warning, Scope: ScopeBundle,
		Title: "suppression names no rule, or an unknown directive",
		Doc: "A rule code or name in an `<!-- okf-lint-disable … -->` comment matches no rule " +
			"(`okf lint --list-rules` lists them), so it disables nothing. (In .okf.yaml an unknown rule " +
			"stops okf with exit 2 and a \"did you mean\".) A comment that starts " +
			"with `okf-lint-` but is neither `okf-lint-disable` nor `okf-lint-disable-next-line` (a typo such as " +
			"`okf-lint-disabel`) is reported too, never silently ignored.\n\n" +
			"Bad:\n\n    <!-- okf-lint-disable OKF1O1 -->\n\nGood:\n\n    <!-- okf-lint-disable OKF101 -->",
		Check: func(p *Pass) {
			for _, d := range p.suppressionDiagnostics("OKF903") {
				p.Report(d)
			}
		}}
	UnusedSuppression = &Rule{Code: "OKF904", Name: "unused-suppression", Severity: okf.Info, Scope: ScopeBundle,
		Title: "inline suppression that suppresses nothing",
		Doc: "An `<!-- okf-lint-disable CODE -->` comment in a concept body turns rules off for that file. When " +
			"it suppresses no finding, the problem was fixed (or never there): remove the comment, so it does not " +
			"hide a future finding.\n\n" +
			"Bad (the concept has a description):\n\n    <!-- okf-lint-disable description-missing -->\n\n" +
			"Good: no comment.",
		// Reported by the engine after suppressions are applied; see applySuppressions.
		Check: func(*Pass) {}}
	SchemaMismatch = &Rule{Code: codeSchemaMismatch, Name: "schema-mismatch", Severity: okf.Warning, Spec: "§4.1", Decision: "D1", Scope: ScopeConcept,
		Title: "frontmatter value of the wrong shape",
		Doc: "Each concept's frontmatter is checked against the JSON Schema of a concept (`okf schema concept`) " +
			"and, when .okf.yaml maps its `type` to a schema file, against that one too. A value of the wrong " +
			"shape (a string where a list is expected) is a warning (D1): the families are optional. Where a " +
			"more precise rule already reports the same line, the schema finding is left out.\n\n" +
			"Bad:\n\n    tags: finance\n    sources:\n      - resource: https://wiki.acme/rev\n        usage_count: many\n\n" +
			"Good:\n\n    tags: [finance]\n    sources:\n      - resource: https://wiki.acme/rev\n        usage_count: 5000",
		Check: checkSchemas}
	SchemaUnusable = &Rule{Code: codeSchemaUnusable, Name: "schema-unusable", Severity: okf.Warning, Scope: ScopeBundle,
		Title: "configured schema file cannot be used",
		Doc: "A `schemas` entry of .okf.yaml names a file that is missing, unreadable, or not a JSON Schema, so " +
			"concepts of that type are only checked against the built-in schema. The file comes from the bundle, " +
			"so it is bounded like any hostile input: more than 5,000 subschemas (schemas.MaxSchemaNodes), nesting " +
			"deeper than 128 levels, more than 64 KiB of patterns, a number with an exponent past ±400, or a cycle of `$ref`/`allOf`/`anyOf`/… " +
			"that never looks inside the value make it unusable, reported at its mapping. And a concept whose " +
			"check against it would take more than schemas.MaxWork steps (two recursive `anyOf` branches and a " +
			"frontmatter 26 levels deep ask for 2^26) is not checked against it: the finding is on that " +
			"concept, at its frontmatter, and the run goes on.\n\n" +
			"Bad:\n\n    schemas:\n      Metric: schemas/metrc.json\n\nGood:\n\n    schemas:\n      Metric: schemas/metric.json",
		Check: func(p *Pass) {
			_, ds := compileSchemas(p.Bundle.ReadFile, p.cfg)
			for _, d := range ds {
				p.Report(d)
			}
		}}
)
