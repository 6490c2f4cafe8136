package attest

import (
	"reflect"
	"strings"
	"testing"
)

var testParams = []Param{
	{Name: "year", Type: "integer", Required: true},
	{Name: "rate", Type: "number", Required: false},
	{Name: "region", Type: "string", Required: false},
	{Name: "final", Type: "boolean", Required: false},
	{Name: "day", Type: "date", Required: false},
	{Name: "at", Type: "timestamp", Required: false},
}

func TestBindTypes(t *testing.T) {
	got, err := Bind(testParams, map[string]string{
		"year": "2025", "rate": "1.5", "region": "eu", "final": "TRUE", "day": "2025-02-28", "at": "2025-02-28T10:00:00Z",
	}, true)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]any{"year": int64(2025), "rate": 1.5, "region": "eu", "final": true, "day": "2025-02-28", "at": "2025-02-28T10:00:00Z"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Bind = %#v, want %#v", got, want)
	}
}

func TestBindErrors(t *testing.T) {
	cases := []struct {
		name     string
		supplied map[string]string
		want     []string
	}{
		{"missing required", map[string]string{"region": "eu"}, []string{`required parameter "year" (integer) is missing: pass --param year=VALUE`}},
		{"wrong integer", map[string]string{"year": "twenty"}, []string{`parameter "year" is declared integer, but "twenty" is not an integer`}},
		{"float for integer", map[string]string{"year": "2025.5"}, []string{`"2025.5" is not an integer`}},
		{"bad number", map[string]string{"year": "1", "rate": "1,5"}, []string{`"1,5" is not a number`}},
		{"bad boolean", map[string]string{"year": "1", "final": "yes"}, []string{`"yes" is not true or false`}},
		{"bad date", map[string]string{"year": "1", "day": "2025-02-30"}, []string{`"2025-02-30" is not a date (YYYY-MM-DD)`}},
		{"timestamp without offset", map[string]string{"year": "1", "at": "2025-02-28T10:00:00"}, []string{`is not an RFC 3339 timestamp with an offset`}},
		{"undeclared", map[string]string{"year": "1", "table": "x"}, []string{`parameter "table" is not declared; the computation declares: year, rate, region, final, day, at`}},
		{"several at once", map[string]string{"table": "x", "rate": "?"}, []string{`"table" is not declared`, `"?" is not a number`, `"year" (integer) is missing`}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := Bind(testParams, c.supplied, true)
			if err == nil {
				t.Fatal("Bind accepted bad parameters")
			}
			for _, w := range c.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not mention %q", err, w)
				}
			}
		})
	}
}

func TestBindUnknownType(t *testing.T) {
	_, err := Bind([]Param{{Name: "x", Type: "geography", Required: true}}, map[string]string{"x": "POINT(1 2)"}, true)
	if err == nil || !strings.Contains(err.Error(), `declares type "geography", which okf cannot check`) {
		t.Errorf("Bind with an unknown type: %v", err)
	}
}

func TestParseParamArgs(t *testing.T) {
	got, err := ParseParamArgs([]string{"year=2025", "tags=a,b", "expr=x=y"})
	if err != nil {
		t.Fatal(err)
	}
	if want := map[string]string{"year": "2025", "tags": "a,b", "expr": "x=y"}; !reflect.DeepEqual(got, want) {
		t.Errorf("ParseParamArgs = %v, want %v", got, want)
	}
	for _, bad := range [][]string{{"year"}, {"=1"}, {"year=1", "year=2"}} {
		if _, err := ParseParamArgs(bad); err == nil {
			t.Errorf("ParseParamArgs(%q) accepted bad input", bad)
		}
	}
}
