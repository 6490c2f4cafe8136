package sqllex

import (
	"reflect"
	"testing"
)

// TestPlaceholders follows D17: @name for SQL runtimes, var('name') for dbt, nothing for others;
// never inside strings, quoted identifiers or comments; @@system variables are not parameters.
func TestPlaceholders(t *testing.T) {
	tests := []struct {
		runtime, src string
		want         []string
	}{
		{"sqlite", "SELECT * FROM t WHERE y = @year AND s = @segment OR y = @year", []string{"year", "segment", "year"}},
		{"postgres", "SELECT '@not', \"@ident\" -- @comment\n/* @block */ FROM t WHERE a = @a", []string{"a"}},
		{"bigquery", "SELECT \"@string in bigquery\", @@project_id, `@quoted` # @hash comment\nFROM t WHERE x = @x", []string{"x"}},
		{"postgres", "SELECT a # b FROM t WHERE x = @x", []string{"x"}}, // # is an operator there
		{"sqlite", "SELECT 'it''s @no' FROM t WHERE x=@x_1", []string{"x_1"}},
		{"dbt", "WHERE fiscal_year = {{ var('year') }} AND segment = {{ var(\"segment\") }} AND z = @z", []string{"year", "segment"}},
		{"python", "def f(@x): pass", nil},
		{" BigQuery ", "WHERE a = @a", []string{"a"}},
	}
	for _, tt := range tests {
		var got []string
		for _, p := range Placeholders(tt.src, tt.runtime) {
			got = append(got, p.Name)
			if tt.src[p.Offset] != '@' && tt.runtime != "dbt" {
				t.Errorf("%q: offset %d does not point at the @", tt.src, p.Offset)
			}
		}
		if !reflect.DeepEqual(got, tt.want) {
			t.Errorf("%s %q: %v, want %v", tt.runtime, tt.src, got, tt.want)
		}
	}
	if PlaceholderSyntax("Looker") != "" || PlaceholderSyntax("dbt") != "dbt" || PlaceholderSyntax("duckdb") != "sql" {
		t.Errorf("placeholder syntax by runtime")
	}
}
