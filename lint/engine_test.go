package lint

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/okf-tools/okf/okf"
	"github.com/okf-tools/okf/schemas"
	"go.yaml.in/yaml/v3"
)

// engineOnly is the rule set of these tests: the conformance and engine rules, whose findings this
// package fixes, so the expectations do not move when family rules are added.
func engineOnly() []*Rule {
	return append(conformanceRules(), engineRules()...)
}

func load(t *testing.T, files map[string]string) *okf.Bundle {
	t.Helper()
	fsys := fstest.MapFS{}
	for p, s := range files {
		fsys[p] = &fstest.MapFile{Data: []byte(s)}
	}
	b, err := okf.Load(fsys, okf.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func lines(ds []okf.Diagnostic) string {
	var out []string
	for _, d := range ds {
		out = append(out, fmt.Sprintf("%s %s %s", d, d.Severity, ""))
	}
	return strings.TrimSpace(strings.ReplaceAll(strings.Join(out, "\n"), " \n", "\n"))
}

func expect(t *testing.T, got []okf.Diagnostic, want ...string) {
	t.Helper()
	g := strings.TrimSpace(lines(got))
	w := strings.TrimSpace(strings.Join(want, "\n"))
	if g != w {
		t.Errorf("findings:\n%s\nwant:\n%s", g, w)
	}
}

const goodConcept = "---\ntype: Metric\ntitle: Revenue\n---\n# Revenue\n"

// mustConfig parses a configuration the test means to be valid.
func mustConfig(t *testing.T, src string) *Config {
	t.Helper()
	c, err := ParseConfig(".okf.yaml", []byte(src))
	if err != nil {
		t.Fatalf("configuration %q: %v", src, err)
	}
	return c
}

// configProblems returns the problems of a configuration as printed, or nil when it is valid.
func configProblems(t *testing.T, name, src string) []string {
	t.Helper()
	_, err := ParseConfig(name, []byte(src))
	if err == nil {
		return nil
	}
	var ce *okf.ConfigError
	if !errors.As(err, &ce) {
		t.Fatalf("error %T %v, want *okf.ConfigError", err, err)
	}
	var out []string
	for _, p := range ce.Problems {
		out = append(out, p.String())
	}
	return out
}

// TestConfigErrorsHavePositions: every problem of the file, at its line and column, with a "did
// you mean" where a valid word is close (the rule names come from lint's registry, which okf
// checks configurations against for every command).
func TestConfigErrorsHavePositions(t *testing.T) {
	src := `rules:
  OKF001: warning
  type-invalid: off
  OKF999: off
  OKF004: loud
  OKF505: errror
  descripton-missing: off
  OKF901: off
  zzz-nothing-like-it: off
overrides:
  - paths: [legacy/**]
    rules: { OKF001: info }
    colour: red
  - rules: { OKF004: off }
ignore: [scratch/**]
expiring_within: 14d
schemas:
  Metric: schemas/metric.json
  Table: [x]
colour: blue
rulez: {}
`
	got := configProblems(t, ".okf.yaml", src)
	want := []string{
		`.okf.yaml:4:3: rules: unknown rule "OKF999"; did you mean "OKF009"?`,
		`.okf.yaml:5:11: rules: OKF004: want off, error, warning or info, found "loud"`,
		`.okf.yaml:6:11: rules: OKF505: want off, error, warning or info, found "errror"; did you mean "error"?`,
		`.okf.yaml:7:3: rules: unknown rule "descripton-missing"; did you mean "description-missing"?`,
		`.okf.yaml:8:3: rules: rule OKF901 (config-invalid) is retired: a configuration that cannot be used now stops okf (exit 2); remove this entry`,
		`.okf.yaml:9:3: rules: unknown rule "zzz-nothing-like-it" (okf lint --list-rules lists them)`,
		`.okf.yaml:13:5: unknown key "colour" in an override (want paths, rules)`,
		`.okf.yaml:14:5: override without paths: it would apply to no file`,
		`.okf.yaml:19:10: schemas.Table: want the path of a schema file in the bundle, found a list`,
		`.okf.yaml:20:1: unknown key "colour" (want rules, overrides, ignore, expiring_within, schemas, max_file_size)`,
		`.okf.yaml:21:1: unknown key "rulez"; did you mean "rules"?`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("problems:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	// What could be read is still returned beside the error (a lenient caller's).
	c, _ := ParseConfig(".okf.yaml", []byte(src))
	if got := c.Rules["OKF001"]; got.Off || got.Severity != okf.Warning {
		t.Errorf("OKF001 setting = %+v", got)
	}
	if !c.Rules["OKF005"].Off {
		t.Error("type-invalid (by name) is not off")
	}
	if len(c.Overrides) != 1 || c.ExpiringWithin != 14*24*time.Hour || len(c.Ignore) != 1 || c.Schemas["Metric"].Path != "schemas/metric.json" {
		t.Errorf("config = %+v", c)
	}
	if s := c.setting(FrontmatterMissing, "legacy/a.md", okf.Error); s.Severity != okf.Info {
		t.Errorf("override not applied under legacy/: %+v", s)
	}
	if s := c.setting(FrontmatterMissing, "a.md", okf.Error); s.Severity != okf.Warning {
		t.Errorf("global setting not applied: %+v", s)
	}

	if got := configProblems(t, "cfg.yaml", "rules: [\n"); len(got) != 1 || !strings.HasPrefix(got[0], "cfg.yaml:1: not valid YAML: ") {
		t.Errorf("invalid YAML: %q", got)
	}
	for _, empty := range []string{"", "# nothing\n", "rules:\nignore:\n"} {
		if got := configProblems(t, "c", empty); got != nil {
			t.Errorf("empty config %q: %q", empty, got)
		}
	}
	if got := configProblems(t, "c", "- a\n"); len(got) != 1 || !strings.Contains(got[0], "must be a mapping") {
		t.Errorf("list config: %q", got)
	}
}

func TestRunAppliesConfig(t *testing.T) {
	b := load(t, map[string]string{
		"index.md":          "# B\n",
		"README.md":         "# no frontmatter\n",
		"legacy/old.md":     "# no frontmatter either\n",
		"legacy/keep.md":    "plain\n",
		"tables/orders.md":  "---\ntype: 42\n---\n",
		"tables/metric.md":  goodConcept,
		"tables/revenue.md": "---\ntype: Metric\ntags: finance\n---\n",
	})
	cfg := mustConfig(t, (`rules:
  frontmatter-missing: warning
  OKF005: off
overrides:
  - paths: ["legacy/**", "!legacy/keep.md"]
    rules: { OKF001: off }
`))
	got := Run(b, Options{Rules: engineOnly(), Config: cfg})
	expect(t, got,
		`README.md:1:1: no frontmatter: a concept must begin with a --- line, YAML with a type, and a closing --- line (§11); if this file is not a concept, list it in .okfignore [OKF001] warning`,
		`legacy/keep.md:1:1: no frontmatter: a concept must begin with a --- line, YAML with a type, and a closing --- line (§11) [OKF001] warning`,
		`tables/revenue.md:3:7: tags: expected a list, found a string [OKF905] warning`,
	)
	// An override may turn on, for some files, a rule that is off elsewhere.
	cfg = mustConfig(t, ("rules: { OKF905: off }\noverrides:\n  - paths: [tables/]\n    rules: { OKF905: info }\n"))
	got = Run(b, Options{Rules: []*Rule{SchemaMismatch}, Config: cfg})
	expect(t, got, `tables/revenue.md:3:7: tags: expected a list, found a string [OKF905] info`)
}

func TestInlineSuppressions(t *testing.T) {
	b := load(t, map[string]string{
		"a.md": "---\ntype: Metric\ntags: x\nsources: 5\n---\n<!-- okf-lint-disable OKF905 -->\n",
		"b.md": "---\ntype: Metric\ntags: x\n---\n<!-- okf-lint-disable schema-mismatch, OKF001 -->\n",
		"c.md": "---\ntype: Metric\n---\n<!-- okf-lint-disable -->\n<!-- okf-lint-disable OKF9O5 -->\nText <!-- okf-lint-disabled OKF905 --> is a misspelt directive.\n",
		"d.md": "---\ntype: Metric\ntags: x\n---\n<!-- okf-lint-disable -->\n",
	})
	got := Run(b, Options{Rules: engineOnly()})
	expect(t, got,
		`c.md:4:1: okf-lint-disable (every rule) suppresses nothing in this file: remove it [OKF904] info`,
		`c.md:5:1: okf-lint-disable names unknown rule "OKF9O5" (okf lint --list-rules lists them) [OKF903] warning`,
		`c.md:6:6: unknown directive "okf-lint-disabled" (did you mean okf-lint-disable?) [OKF903] warning`,
	)
	// Turning OKF904 off in the configuration silences the unused ones.
	cfg := mustConfig(t, ("rules: { unused-suppression: off }\n"))
	got = Run(b, Options{Rules: engineOnly(), Config: cfg})
	expect(t, got, `c.md:5:1: okf-lint-disable names unknown rule "OKF9O5" (okf lint --list-rules lists them) [OKF903] warning`,
		`c.md:6:6: unknown directive "okf-lint-disabled" (did you mean okf-lint-disable?) [OKF903] warning`)
}

func TestUnusedSuppressionNamesItsCodes(t *testing.T) {
	b := load(t, map[string]string{"a.md": goodConcept + "<!-- okf-lint-disable OKF905,OKF001 -->\n"})
	expect(t, Run(b, Options{Rules: engineOnly()}),
		`a.md:6:1: okf-lint-disable (OKF905, OKF001) suppresses nothing in this file: remove it [OKF904] info`)
}

func TestBaselineIgnoresLineShifts(t *testing.T) {
	files := map[string]string{
		"a.md": "---\ntype: Metric\ntags: x\n---\n",
		"b.md": "---\ntype: 5\n---\n",
	}
	before := Run(load(t, files), Options{Rules: engineOnly()})
	if len(before) != 2 {
		t.Fatalf("want 2 findings to baseline, got %v", before)
	}
	bl := NewBaseline(before)
	data := bl.Marshal()
	parsed, err := ParseBaseline(data)
	if err != nil {
		t.Fatal(err)
	}
	if string(parsed.Marshal()) != string(data) {
		t.Errorf("baseline does not round-trip:\n%s", data)
	}
	if strings.Contains(string(data), `"line"`) {
		t.Errorf("baseline must not key on lines:\n%s", data)
	}
	// Unrelated edits move the old findings; a new finding in a.md and a second copy of b.md's are new.
	files["a.md"] = "---\ntitle: Moved down\ntype: Metric\nstatus: stable\ntags: x\nsources: no\n---\n"
	files["c.md"] = "---\ntype: 5\n---\n"
	after := Run(load(t, files), Options{Rules: engineOnly(), Baseline: parsed})
	expect(t, after,
		`a.md:6:10: sources: expected a list, found a string [OKF905] warning`,
		`c.md:2:7: type must be a non-empty string, found an integer [OKF005] error`,
	)
	if _, err := ParseBaseline([]byte(`{"version": 9, "findings": []}`)); err == nil {
		t.Error("a baseline of an unknown version was accepted")
	}
	if _, err := ParseBaseline([]byte(`nope`)); err == nil {
		t.Error("a baseline that is not JSON was accepted")
	}
}

func TestFilesFilter(t *testing.T) {
	b := load(t, map[string]string{
		"a.md": "---\ntype: 5\n---\n",
		"b.md": "---\ntype: 6\n---\n",
	})
	got := Run(b, Options{Rules: engineOnly(), Files: []string{"b.md"}})
	expect(t, got, `b.md:2:7: type must be a non-empty string, found an integer [OKF005] error`)
}

func TestBundleSchemaPerType(t *testing.T) {
	b := load(t, map[string]string{
		"m.md":                "---\ntype: Metric\ntitle: Revenue\ntags: x\n---\n",
		"t.md":                "---\ntype: Table\n---\n",
		"o.md":                "---\ntype: Other\n---\n",
		"schemas/metric.yaml": "allOf: [{$ref: \"https://raw.githubusercontent.com/okf-tools/okf/main/schemas/concept.schema.json\"}]\nrequired: [owner]\nproperties:\n  owner: { type: string }\n",
		"schemas/table.json":  `{"type": 7}`,
	})
	cfg := mustConfig(t, ("schemas:\n  Metric: schemas/metric.yaml\n  Table: /schemas/table.json\n  Other: schemas/missing.json\n"))
	got := Run(b, Options{Rules: engineOnly(), Config: cfg})
	want := []string{
		`.okf.yaml:3:10: schema for type "Table": "schemas/table.json" is not a usable JSON Schema: `,
		`.okf.yaml:4:10: schema for type "Other": cannot read "schemas/missing.json" in the bundle [OKF906] warning`,
		`m.md:2:1: schema of type "Metric": frontmatter: missing required key "owner" [OKF905] warning`,
		// Reported once, though the bundle schema includes the built-in one.
		`m.md:4:7: tags: expected a list, found a string [OKF905] warning`,
	}
	g := strings.Split(lines(got), "\n")
	if len(g) != len(want) {
		t.Fatalf("findings:\n%s", lines(got))
	}
	for i := range want {
		if !strings.HasPrefix(g[i], want[i]) {
			t.Errorf("finding %d = %q, want prefix %q", i, g[i], want[i])
		}
	}
}

func TestSchemaFindingsLeaveRoomForPreciseRules(t *testing.T) {
	precise := &Rule{Code: "OKF0T1", Name: "test-precise", Severity: okf.Warning, Check: func(p *Pass) {
		p.Reportf(okf.Position{Path: "a.md", Line: 3, Col: 1}, "tags must be a list of strings")
	}}
	b := load(t, map[string]string{"a.md": "---\ntype: Metric\ntags: x\nsources: 5\n---\n"})
	got := Run(b, Options{Rules: []*Rule{SchemaMismatch, precise}})
	expect(t, got,
		`a.md:3:1: tags must be a list of strings [OKF0T1] warning`,
		`a.md:4:10: sources: expected a list, found an integer [OKF905] warning`,
	)
}

// projectionDocs are concepts whose frontmatter the projection must judge as the YAML does.
var projectionDocs = []string{
	goodConcept,
	"---\ntype: Metric\ntags: [a, 1]\n---\n",
	"---\ntype: Metric\ntags: a\n---\n",
	"---\ntype: Metric\ntitle: 5\ndescription: [x]\nresource: {a: 1}\n---\n",
	"---\ntype: Metric\nsources:\n  - resource: x\n    usage_count: 5\n  - resource: y\n    usage_count: -1\n---\n",
	"---\ntype: Metric\nsources:\n  - just a string\n---\n",
	"---\ntype: Metric\nsources:\n  - {resource: x, usage_count: 0x10, usage_window: {from: 2026-01-01, to: 5}}\n---\n",
	"---\ntype: Metric\nusage_window: {from: 2026-01-01, to: 2026-02-01}\n---\n",
	"---\ntype: Metric\nusage_window: soon\n---\n",
	"---\ntype: Metric\ngenerated: {by: a/1, at: 2026-01-01}\n---\n",
	"---\ntype: Metric\ngenerated: {by: [a], at: 5}\n---\n",
	"---\ntype: Metric\ngenerated: yes\n---\n",
	"---\ntype: Metric\nverified: \"yes\"\n---\n",
	"---\ntype: Metric\nverified: {by: human:a, at: 2026-01-01T00:00:00Z}\n---\n",
	"---\ntype: Metric\nverified:\n  - {by: human:a, at: 1}\n  - {by: process:b}\n---\n",
	"---\ntype: Metric\nverified: [a, b]\n---\n",
	"---\ntype: Metric\nverified: []\n---\n",
	"---\ntype: Metric\nstatus: 3\nstale_after: 2026-09-23\n---\n",
	"---\ntype: Attested Computation\nruntime: bigquery\nparameters:\n  - {name: year, type: integer, required: true}\n---\n",
	"---\ntype: Attested Computation\nruntime: [bq]\nparameters:\n  - {name: 5, type: integer, required: \"yes\"}\n  - x\n---\n",
	"---\ntype: Attested Computation\nexecutor: {resource: r.md, receipt: [job_id, 5]}\nattester: {resource: 7}\n---\n",
	"---\ntype: Attested Computation\nexecutor: r.md\nattester: a.py\ncomputation: [x]\n---\n",
	"---\ntype: Metric\ntimestamp: 2026-01-01\nx-custom: {deep: [1, {a: b}]}\nflag: true\nratio: 1.5\nnothing: ~\n---\n",
	"---\ntype: Metric\ntags: &t [a, b]\nother: *t\n---\n",
	"---\ntype: Metric\nsources:\n  - {resource: x, usage_count: 0}\n---\n",
	"---\ntype: Metric\nsources:\n  - {resource: x, usage_count: -3}\n---\n",
	"---\ntype: Metric\nsources:\n  - {resource: x, usage_count: 2.5}\n---\n",
	"---\ntype: Metric\nsources:\n  - {resource: x, usage_count: 7}\n---\n",
	"---\ntype: Metric\ntitle: \"\"\n---\n",
}

// corpusConceptDocs returns the text of every conformant concept of the shared corpus's bundles,
// or none when the corpus is not there.
func corpusConceptDocs() []string {
	var docs []string
	corpus := filepath.Join("..", "..", "shared", "corpus")
	if entries, err := os.ReadDir(corpus); err == nil {
		for _, e := range entries {
			if !e.IsDir() {
				continue
			}
			b, err := okf.LoadDir(filepath.Join(corpus, e.Name()), okf.LoadOptions{})
			if err != nil {
				continue
			}
			for _, c := range b.Concepts {
				if c.Conformant() {
					if raw, err := b.ReadFile(c.Path); err == nil {
						docs = append(docs, string(raw))
					}
				}
			}
		}
	}
	return docs
}

// TestProjectionAgreesWithNode checks the fast path: for every concept where the projection built
// from the typed model is usable, its verdict must be the one validating the re-read YAML gives.
func TestProjectionAgreesWithNode(t *testing.T) {
	docs := slices.Clone(projectionDocs)
	// The corpus, when it is there, adds real-world frontmatter.
	docs = append(docs, corpusConceptDocs()...)
	base, err := schemas.Concept()
	if err != nil {
		t.Fatal(err)
	}
	usable := 0
	shared := newShapeCache()
	for i, doc := range docs {
		c, _ := okf.ParseConcept("x.md", []byte(doc))
		if !c.Conformant() {
			t.Fatalf("doc %d is not conformant:\n%s", i, doc)
		}
		n, err := c.Frontmatter.Node()
		if err != nil {
			t.Fatal(err)
		}
		slow := len(base.Validate(n)) == 0
		v, ok := projection(c.Frontmatter)
		if !ok {
			continue
		}
		usable++
		if fast := base.Valid(v); fast != slow {
			t.Errorf("doc %d: projection says valid=%v, the YAML says valid=%v:\n%s", i, fast, slow, doc)
		}
		// The shape cache, shared by every document as in a run, must give the same verdict.
		if cached := shared.valid(base, v); cached != slow {
			t.Errorf("doc %d: shape cache says valid=%v, the YAML says valid=%v:\n%s", i, cached, slow, doc)
		}
	}
	if usable < len(docs)-3 {
		t.Errorf("the projection was usable for only %d of %d documents", usable, len(docs))
	}
}

// TestRunIsDeterministic runs the rules on many workers and on one: same findings, same order.
func TestRunIsDeterministic(t *testing.T) {
	files := map[string]string{"index.md": "# B\n"}
	for i := range 50 {
		files[fmt.Sprintf("c%02d.md", i)] = fmt.Sprintf("---\ntype: Metric\ntags: t%d\n---\n<!-- okf-lint-disable OKF001 -->\n", i)
	}
	b := load(t, files)
	one := lines(Run(b, Options{Workers: 1}))
	for range 5 {
		if many := lines(Run(b, Options{Workers: 8})); many != one {
			t.Fatalf("parallel run differs:\n%s\nvs\n%s", many, one)
		}
	}
	if !strings.Contains(one, "c49.md:5:1: okf-lint-disable (OKF001) suppresses nothing in this file") {
		t.Errorf("unexpected findings:\n%s", one)
	}
}

func TestRegistryHasEngineRules(t *testing.T) {
	seen := map[string]bool{}
	for _, r := range All() {
		if seen[r.Code] || seen[r.Name] {
			t.Errorf("duplicate code or name %s %s", r.Code, r.Name)
		}
		seen[r.Code], seen[r.Name] = true, true
		if r.Title == "" || !strings.Contains(r.Doc, "Bad") || !strings.Contains(r.Doc, "Good") {
			t.Errorf("%s: missing title or bad/good examples in its doc", r.Code)
		}
	}
	for _, r := range engineRules() {
		if !strings.HasPrefix(r.Code, "OKF9") || r.Severity == okf.Error {
			t.Errorf("%s: engine rules are OKF9xx and never errors (D1)", r.Code)
		}
		if Lookup(r.Code) != r || Lookup(r.Name) != r {
			t.Errorf("%s: Lookup does not find it by code and name", r.Code)
		}
	}
	if Lookup("nope") != nil {
		t.Error("Lookup(nope) found a rule")
	}
}

func TestPanickingRuleIsAFinding(t *testing.T) {
	boom := &Rule{Code: "OKF0T2", Name: "test-boom", Severity: okf.Info, Check: func(*Pass) { panic("boom") }}
	b := load(t, map[string]string{"a.md": "---\ntype: 5\n---\n"})
	got := Run(b, Options{Rules: []*Rule{boom, TypeInvalid}})
	expect(t, got,
		`: rule OKF0T2 (test-boom) failed: boom; this is a bug in okf, please report it [OKF0T2] warning`,
		`a.md:2:7: type must be a non-empty string, found an integer [OKF005] error`,
	)
}

func TestExpiringWindowPrecedence(t *testing.T) {
	var seen time.Duration
	probe := &Rule{Code: "OKF0T3", Name: "test-probe", Severity: okf.Info, Check: func(p *Pass) { seen = p.ExpiringWithin }}
	b := load(t, map[string]string{"a.md": goodConcept})
	cfg := mustConfig(t, ("expiring_within: 7d\n"))
	for _, c := range []struct {
		flag time.Duration
		cfg  *Config
		want time.Duration
	}{
		{0, nil, okf.DefaultExpiringWindow},
		{0, cfg, 7 * 24 * time.Hour},
		{time.Hour, cfg, time.Hour},
		// A written 0 turns the window off, from the flag or from the configuration.
		{WindowSetting(0), cfg, 0},
		{0, mustConfig(t, ("expiring_within: 0\n")), 0},
	} {
		Run(b, Options{Rules: []*Rule{probe}, ExpiringWithin: c.flag, Config: c.cfg})
		if seen != c.want {
			t.Errorf("flag %v, config %v: window %v, want %v", c.flag, c.cfg != nil, seen, c.want)
		}
	}
}

// TestBuiltinSchemasStayCacheable guards shapeKey: it keeps only whether a string is empty and a
// number's sign and wholeness, which is sound only while the embedded schemas use no keyword that
// looks further into a value. A schema change that adds one (enum, pattern, maxLength, …) fails
// here, and shapeKey must be revisited.
func TestBuiltinSchemasStayCacheable(t *testing.T) {
	allowed := map[string]bool{"$schema": true, "$id": true, "title": true, "description": true, "examples": true,
		"type": true, "required": true, "properties": true, "items": true, "allOf": true, "$ref": true, "$defs": true,
		"minLength": true, "minimum": true}
	var walk func(name string, v any, names bool)
	walk = func(name string, v any, names bool) {
		switch x := v.(type) {
		case map[string]any:
			for k, c := range x {
				if names {
					walk(name, c, false) // a property or definition name: its value is a schema
					continue
				}
				if !allowed[k] {
					t.Errorf("%s: keyword %q: shapeKey does not know it", name, k)
				}
				switch k {
				case "properties", "$defs":
					walk(name, c, true)
				case "items":
					walk(name, c, false)
				case "allOf":
					for _, s := range c.([]any) {
						walk(name, s, false)
					}
				case "minLength":
					if c != 1.0 {
						t.Errorf("%s: minLength %v: shapeKey keeps only empty or not", name, c)
					}
				case "minimum":
					if c != 0.0 {
						t.Errorf("%s: minimum %v: shapeKey keeps only the sign", name, c)
					}
				}
			}
		}
	}
	for _, n := range schemas.Families() {
		b, _ := schemas.Text(n)
		var doc any
		if err := json.Unmarshal(b, &doc); err != nil {
			t.Fatal(err)
		}
		walk(n, doc, false)
	}
}

// TestConfigSchemaMatchesParser keeps the editors' schema of .okf.yaml and ParseConfig in step: the
// same top-level keys, a full example valid for both, and a mistake refused by both.
func TestConfigSchemaMatchesParser(t *testing.T) {
	b, _ := schemas.Text("config")
	var doc struct {
		Properties map[string]any `json:"properties"`
	}
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	if len(doc.Properties) != len(okf.ConfigKeys) {
		t.Errorf("schema keys %v, parser keys %v", doc.Properties, okf.ConfigKeys)
	}
	for _, k := range okf.ConfigKeys {
		if doc.Properties[k] == nil {
			t.Errorf("config schema lacks %q", k)
		}
	}
	s, err := schemas.Compile("config.schema.json", b)
	if err != nil {
		t.Fatal(err)
	}
	good := "rules:\n  OKF905: info\n  unused-suppression: off\noverrides:\n  - paths: [\"legacy/**\"]\n    rules: { OKF001: warning }\nignore: [\"scratch/**\"]\nexpiring_within: 14d\nschemas:\n  Metric: schemas/metric.json\nmax_file_size: 16MiB\n"
	if got := configProblems(t, "c", good); got != nil {
		t.Errorf("parser: %v", got)
	}
	var n yaml.Node
	if err := yaml.Unmarshal([]byte(good), &n); err != nil {
		t.Fatal(err)
	}
	if vs := s.Validate(n.Content[0]); len(vs) != 0 {
		t.Errorf("schema: %+v", vs)
	}
	if c := mustConfig(t, good); c.MaxFileSize != 16<<20 {
		t.Errorf("max_file_size 16MiB read as %d", c.MaxFileSize)
	}
	if c := mustConfig(t, "max_file_size: 1048576\n"); c.MaxFileSize != 1<<20 {
		t.Errorf("max_file_size in bytes: %d", c.MaxFileSize)
	}
	bad := "rules:\n  OKF905: loud\nexpiring_within: soon\ncolour: blue\nmax_file_size: huge\n"
	if got := configProblems(t, "c", bad); len(got) != 4 {
		t.Errorf("parser found %d problems, want 4: %v", len(got), got)
	}
	if err := yaml.Unmarshal([]byte(bad), &n); err != nil {
		t.Fatal(err)
	}
	if vs := s.Validate(n.Content[0]); len(vs) != 4 {
		t.Errorf("schema found %d problems, want 4: %+v", len(vs), vs)
	}
}

// TestBundleSchemaRepeatsManyViolations: with more violations than the short list holds, each of
// the built-in schema's violations that a bundle schema including it repeats is still said once.
func TestBundleSchemaRepeatsManyViolations(t *testing.T) {
	var fm strings.Builder
	fm.WriteString("---\ntype: Metric\nowner: me\nsources:\n")
	for i := range 20 {
		fmt.Fprintf(&fm, "  - {resource: r%d, usage_count: many}\n", i)
	}
	fm.WriteString("---\n")
	b := load(t, map[string]string{
		"m.md":                fm.String(),
		"schemas/metric.yaml": "allOf: [{$ref: \"https://raw.githubusercontent.com/okf-tools/okf/main/schemas/concept.schema.json\"}]\nrequired: [owner]\n",
	})
	cfg := mustConfig(t, ("schemas:\n  Metric: schemas/metric.yaml\n"))
	got := Run(b, Options{Rules: []*Rule{SchemaMismatch}, Config: cfg})
	var want []string
	for i := range 20 {
		// Line 5 is the first entry; in "  - {resource: r0, usage_count: many}" the value starts at
		// column 33, one further from r10 on.
		col := 33
		if i >= 10 {
			col = 34
		}
		want = append(want, fmt.Sprintf("m.md:%d:%d: sources[%d].usage_count: expected an integer, found a string [OKF905] warning", 5+i, col, i))
	}
	expect(t, got, want...)
}

// TestConfigRuleSetTwice: one rule set by its code and by its name is a problem, not a silent
// choice of the later setting.
func TestConfigRuleSetTwice(t *testing.T) {
	_, err := ParseConfig(".okf.yaml", []byte("rules:\n  title-missing: warning\n  OKF101: off\n"))
	if err == nil || !strings.Contains(err.Error(), `rule OKF101 set twice (first on line 2, as "title-missing")`) {
		t.Errorf("got %v", err)
	}
}
