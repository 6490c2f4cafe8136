package schemas

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

func node(t *testing.T, src string) *yaml.Node {
	t.Helper()
	var doc yaml.Node
	if err := yaml.Unmarshal([]byte(src), &doc); err != nil {
		t.Fatal(err)
	}
	return doc.Content[0]
}

func TestEmbeddedSchemasCompile(t *testing.T) {
	if _, err := Concept(); err != nil {
		t.Fatalf("concept schema: %v", err)
	}
	for _, n := range Names() {
		b, ok := Text(n)
		if !ok {
			t.Fatalf("schema %q not embedded", n)
		}
		var doc map[string]any
		if err := json.Unmarshal(b, &doc); err != nil {
			t.Fatalf("%s: %v", n, err)
		}
		if doc["$schema"] != "https://json-schema.org/draft/2020-12/schema" {
			t.Errorf("%s: $schema = %v, want draft 2020-12", n, doc["$schema"])
		}
		if doc["$id"] != BaseURL+n+".schema.json" {
			t.Errorf("%s: $id = %v", n, doc["$id"])
		}
		if _, err := Compile(n+".schema.json", b); err != nil {
			t.Errorf("%s: %v", n, err)
		}
	}
	if _, ok := Text("nope"); ok {
		t.Error("Text(nope) found something")
	}
}

func TestValidateMapsErrorsToYAMLPositions(t *testing.T) {
	s, err := Concept()
	if err != nil {
		t.Fatal(err)
	}
	src := `type: Metric
title: 42
tags: [finance, 7]
stale_after: 2026-06-01
verified: "yes"
sources:
  - resource: https://example.com
    usage_count: many
parameters:
  - { name: year, type: integer, required: "yes" }
executor: run.md
custom: { anything: [1, 2] }
`
	got := s.Validate(node(t, src))
	want := []string{
		`2:8-2:10 title: expected a string, found an integer`,
		`3:17-3:18 tags[1]: expected a string, found an integer`,
		`5:11-5:16 verified: expected a list or a mapping, found a string`,
		`8:18-8:22 sources[0].usage_count: expected an integer, found a string`,
		`10:44-10:49 parameters[0].required: expected a boolean, found a string`,
		`11:11-11:17 executor: expected a mapping, found a string`,
	}
	var lines []string
	for _, v := range got {
		lines = append(lines, fmt.Sprintf("%d:%d-%d:%d %s: %s", v.Line, v.Col, v.EndLine, v.EndCol, v.Path, v.Message))
	}
	if strings.Join(lines, "\n") != strings.Join(want, "\n") {
		t.Errorf("got:\n%s\nwant:\n%s", strings.Join(lines, "\n"), strings.Join(want, "\n"))
	}
}

func TestValidateCleanFrontmatter(t *testing.T) {
	s, _ := Concept()
	// The §10.2 example, with unquoted timestamps and a bare-mapping verified (D12).
	src := `type: Attested Computation
title: Revenue for fiscal year
status: stable
runtime: bigquery
parameters:
  - { name: year, type: integer, required: true }
executor:
  resource: references/skills/run-on-bq.md
  receipt: [job_id, executed_sql, result]
attester:
  resource: references/attesters/revenue.py
generated: { by: reference_agent/gemini-2.5-pro, at: 2026-06-20T22:53:05Z }
verified: { by: human:ahormati, at: 2026-06-25T09:00:00Z }
stale_after: 2026-09-23
sources:
  - id: rev-policy
    resource: https://wiki.acme/finance/revenue-recognition
    usage_count: 5000
usage_window: { from: 2026-06-01T00:00:00Z, to: 2026-06-30T00:00:00Z }
x-producer: { anything: goes }
`
	if got := s.Validate(node(t, src)); len(got) != 0 {
		t.Errorf("want no violations, got %+v", got)
	}
}

func TestValueOfKeepsTimestampsAsStrings(t *testing.T) {
	n := node(t, "at: 2026-06-01\nn: 0x10\nf: 1.5\nb: true\nz: ~\nq: \"12\"\n")
	got := ValueOf(n).(map[string]any)
	if got["at"] != "2026-06-01" {
		t.Errorf("at = %#v, want the string as written", got["at"])
	}
	if got["n"] != json.Number("16") || got["f"] != json.Number("1.5") || got["b"] != true || got["z"] != nil || got["q"] != "12" {
		t.Errorf("scalars = %#v", got)
	}
}

func TestCompileBundleSchema(t *testing.T) {
	src := []byte(`$schema: https://json-schema.org/draft/2020-12/schema
allOf:
  - $ref: https://raw.githubusercontent.com/okf-tools/okf/main/schemas/concept.schema.json
required: [owner]
properties:
  owner: { type: string }
`)
	s, err := Compile("schemas/metric.yaml", src)
	if err != nil {
		t.Fatal(err)
	}
	got := s.Validate(node(t, "type: Metric\ntags: x\n"))
	if len(got) != 2 || got[0].Message != `missing required key "owner"` || got[0].Line != 1 || got[1].Path != "tags" {
		t.Errorf("got %+v", got)
	}
	if _, err := Compile("bad.json", []byte(`{"type": 5}`)); err == nil {
		t.Error("a schema with type 5 compiled")
	}
	if _, err := Compile("remote.json", []byte(`{"$ref": "https://example.com/s.json"}`)); err == nil {
		t.Error("a schema with a remote $ref compiled: nothing may be fetched")
	}
}
