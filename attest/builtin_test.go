package attest

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestFirstCell(t *testing.T) {
	cases := []struct{ in, cell, why string }{
		{`[300.5]`, `300.5`, ""},
		{`[[12, "x"], [13, "y"]]`, `12`, ""},
		{`[{"revenue": "12.00"}]`, `"12.00"`, ""},
		{`{"revenue": 7}`, `7`, ""},
		{`42`, `42`, ""},
		{`null`, ``, "no result"},
		{`[]`, ``, "empty"},
		{`{"a": 1, "b": 2}`, ``, "ambiguous"},
		{`[[[1]]]`, ``, "itself a list"},
	}
	for _, c := range cases {
		cell, why := FirstCell(json.RawMessage(c.in))
		if string(cell) != c.cell || (c.why == "") != (why == "") || !strings.Contains(why, c.why) {
			t.Errorf("FirstCell(%s) = %s, %q; want %s, %q", c.in, cell, why, c.cell, c.why)
		}
	}
}

func TestValuesEqual(t *testing.T) {
	equal := [][2]string{{`12.0`, `12`}, {`12`, `"12.00"`}, {`1e3`, `1000`}, {`"abc"`, `"abc"`}, {`true`, `true`}, {`-0.5`, `"-.5"`}}
	for _, p := range equal {
		if !ValuesEqual(json.RawMessage(p[0]), json.RawMessage(p[1])) {
			t.Errorf("ValuesEqual(%s, %s) = false, want true", p[0], p[1])
		}
	}
	different := [][2]string{{`12.01`, `12`}, {`"abc"`, `"ABC"`}, {`true`, `"true"`}, {`1`, `true`}, {`0.1`, `0.10000000000000001`}}
	for _, p := range different {
		if ValuesEqual(json.RawMessage(p[0]), json.RawMessage(p[1])) {
			t.Errorf("ValuesEqual(%s, %s) = true, want false", p[0], p[1])
		}
	}
}

func TestSQLEqualityBuiltin(t *testing.T) {
	sanctioned := "SELECT SUM(amount) AS revenue\nFROM sales\nWHERE year = @year\n"
	req := func(receipt, claimed string) *Request {
		return &Request{Runtime: "sqlite", SanctionedSQL: sanctioned, Receipt: json.RawMessage(receipt), ClaimedValue: json.RawMessage(claimed)}
	}
	cases := []struct {
		name, receipt, claimed string
		ok                     bool
		reason                 string
	}{
		{"same SQL reformatted, value matches", `{"executed_sql": "select sum(amount) as revenue from sales where year=@year;", "result": [300.5]}`, `300.50`, true, ""},
		{"no claimed value skips fidelity", `{"executed_sql": "SELECT SUM(amount) AS revenue FROM sales WHERE year = @year", "result": [1]}`, `null`, true, ""},
		{"compiled_sql is read when executed_sql is absent", `{"compiled_sql": "SELECT SUM(amount) AS revenue FROM sales WHERE year = @year"}`, `null`, true, ""},
		{"literal interpolated", `{"executed_sql": "SELECT SUM(amount) AS revenue FROM sales WHERE year = 2025", "result": [300.5]}`, `300.5`, false, "not the sanctioned computation"},
		{"claimed value differs", `{"executed_sql": "SELECT SUM(amount) AS revenue FROM sales WHERE year = @year", "result": [300.5]}`, `301`, false, "fidelity: the claimed value 301"},
		{"run failed", `{"executed_sql": "SELECT SUM(amount) AS revenue FROM sales WHERE year = @year", "result": null, "error": "no such table: sales"}`, `null`, false, "the run failed"},
		{"no executed SQL", `{"result": [1]}`, `null`, false, "no executed_sql"},
		{"receipt not an object", `[1]`, `null`, false, "not a JSON object"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			v := sqlEquality(req(c.receipt, c.claimed))
			if v.OK != c.ok {
				t.Fatalf("ok = %v, want %v (reason %v)", v.OK, c.ok, deref(v.Reason))
			}
			if !c.ok && !strings.Contains(deref(v.Reason), c.reason) {
				t.Errorf("reason %q does not mention %q", deref(v.Reason), c.reason)
			}
			if c.ok && v.Reason != nil {
				t.Errorf("a pass has reason %q, want null", *v.Reason)
			}
		})
	}
}

func deref(s *string) string {
	if s == nil {
		return "<nil>"
	}
	return *s
}
