package lint

import (
	"testing"
	"testing/fstest"

	"github.com/okf-tools/okf/okf"
)

// TestSchemaCheckWhileLoading: the schema check run on the loader's parsed frontmatter gives the
// findings the rule gives by parsing each frontmatter again, and the rule then parses nothing.
func TestSchemaCheckWhileLoading(t *testing.T) {
	fsys := fstest.MapFS{}
	for p, s := range map[string]string{
		"m.md":                "---\ntype: Metric\ntitle: Revenue\ntags: x\n---\n",
		"clean.md":            goodConcept,
		"t.md":                "---\ntype: Table\n---\n",
		"o.md":                "---\ntype: Other\nsources: 5\n---\n",
		"notype.md":           "---\ntitle: x\ntags: 5\n---\n",
		"bad.md":              "---\ntype: [\n---\n",
		"none.md":             "no frontmatter\n",
		"deep/x.md":           "---\ntype: Metric\nowner: me\nverified: {by: 5, at: yesterday}\nusage_window: []\n---\n",
		"schemas/metric.yaml": "allOf: [{$ref: \"https://raw.githubusercontent.com/okf-tools/okf/main/schemas/concept.schema.json\"}]\nrequired: [owner]\nproperties:\n  owner: { type: string }\n",
		"schemas/table.json":  `{"type": 7}`,
	} {
		fsys[p] = &fstest.MapFile{Data: []byte(s)}
	}
	cfg := mustConfig(t, "schemas:\n  Metric: schemas/metric.yaml\n  Table: /schemas/table.json\n  Other: schemas/missing.json\n")

	plain, err := okf.Load(fsys, okf.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	want := Run(plain, Options{Rules: engineOnly(), Config: cfg})

	check := NewSchemaCheck(fsys, cfg)
	b, err := okf.Load(fsys, okf.LoadOptions{OnFrontmatter: check.OnFrontmatter})
	if err != nil {
		t.Fatal(err)
	}
	// Every concept whose frontmatter parsed was checked while loading (not bad.md, none.md).
	if len(check.found) != 6 {
		t.Fatalf("checked %d concepts while loading, want 6", len(check.found))
	}
	got := Run(b, Options{Rules: engineOnly(), Config: cfg, Schemas: check})
	if lines(got) != lines(want) {
		t.Fatalf("with the check while loading:\n%s\nwithout:\n%s", lines(got), lines(want))
	}
	// By hand: the fixture has these schema findings (and the others of TestBundleSchemaPerType).
	expectSome(t, got,
		`m.md:2:1: schema of type "Metric": frontmatter: missing required key "owner" [OKF905] warning`,
		`m.md:4:7: tags: expected a list, found a string [OKF905] warning`,
		`o.md:3:10: sources: expected a list, found an integer [OKF905] warning`,
		`deep/x.md:4:16: verified.by: expected a string, found an integer [OKF905] warning`,
		`deep/x.md:5:15: usage_window: expected a mapping, found a list [OKF905] warning`,
	)

	// The findings come from the check: change a file after loading, and the rule does not see it.
	fsys["o.md"] = &fstest.MapFile{Data: []byte("---\ntype: Other\n---\n")}
	if again := Run(b, Options{Rules: engineOnly(), Config: cfg, Schemas: check}); lines(again) != lines(want) {
		t.Fatalf("after a change on disk:\n%s", lines(again))
	}

	// A configuration that turns the rule off needs no check; a nil check is no check.
	if NewSchemaCheck(fsys, mustConfig(t, "rules: { schema-mismatch: off }\n")) != nil {
		t.Error("a check when schema-mismatch is off")
	}
	var none *SchemaCheck
	none.OnFrontmatter(b.Concepts[0], nil)
}

// expectSome checks that each of want is among the findings.
func expectSome(t *testing.T, ds []okf.Diagnostic, want ...string) {
	t.Helper()
	have := map[string]bool{}
	for _, d := range ds {
		have[d.String()+" "+d.Severity.String()] = true
	}
	for _, w := range want {
		if !have[w] {
			t.Errorf("missing finding %s in:\n%s", w, lines(ds))
		}
	}
}
