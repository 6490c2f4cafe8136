package attest

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestFidelityBuiltin runs builtin:fidelity as a bundle selects it (through the builtins table),
// so a change to the table or to fidelityOnly is caught: the claimed value must equal the receipt's
// first result cell, exactly for numbers (§10.5 step 5).
func TestFidelityBuiltin(t *testing.T) {
	fn, ok := builtins["fidelity"]
	if !ok {
		t.Fatal("builtin:fidelity is not registered")
	}
	cases := []struct {
		name, receipt, claimed string
		ok                     bool
		reason                 string
	}{
		{"equal number", `{"result": [300.5]}`, `300.5`, true, ""},
		{"trailing zeros are the same number", `{"result": [[12, "x"]]}`, `12.00`, true, ""},
		{"numeric string from BigQuery NUMERIC", `{"result": [{"revenue": "1234.50"}]}`, `1234.5`, true, ""},
		{"exponent form", `{"result": [1000]}`, `1e3`, true, ""},
		{"different number", `{"result": [300.5]}`, `300.51`, false, "fidelity: the claimed value 300.51 does not equal the receipt's first result cell 300.5"},
		{"string is not a boolean", `{"result": [true]}`, `"true"`, false, "does not equal"},
		{"no claimed value", `{"result": [1]}`, `null`, false, "no claimed value to compare"},
		{"absent claimed value", `{"result": [1]}`, ``, false, "no claimed value to compare"},
		{"no result", `{"executed_sql": "SELECT 1"}`, `1`, false, "fidelity: the receipt has no result"},
		{"empty result", `{"result": []}`, `1`, false, "fidelity: the receipt's result is empty"},
		{"ambiguous object", `{"result": {"a": 1, "b": 2}}`, `1`, false, "ambiguous"},
		{"receipt not an object", `[1]`, `1`, false, "the receipt is not a JSON object"},
		// fidelity does not look at the SQL: a rewritten query with the right value still passes
		// fidelity alone (that is sql-equality's job).
		{"sql not compared", `{"executed_sql": "SELECT 42", "result": [42]}`, `42`, true, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			v := fn(&Request{Runtime: "sqlite", SanctionedSQL: "SELECT SUM(a) FROM t", Receipt: json.RawMessage(c.receipt), ClaimedValue: json.RawMessage(c.claimed)})
			if v.OK != c.ok {
				t.Fatalf("ok = %v, want %v (reason %v)", v.OK, c.ok, v.Reason)
			}
			if c.ok {
				if v.Reason != nil {
					t.Errorf("a pass carries reason %q", *v.Reason)
				}
				var d map[string]any
				if err := json.Unmarshal(v.Details, &d); err != nil || d["fidelity"] != "match" {
					t.Errorf("details %s, want fidelity: match", v.Details)
				}
				return
			}
			if v.Reason == nil || !strings.Contains(*v.Reason, c.reason) {
				t.Errorf("reason %v, want it to contain %q", v.Reason, c.reason)
			}
		})
	}
}
