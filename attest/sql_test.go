package attest

import (
	"reflect"
	"strings"
	"testing"

	"github.com/okf-tools/okf/internal/sqllex"
)

func TestCanonicalSQLEqual(t *testing.T) {
	// Pairs that §10.5's provenance check must treat as the same computation.
	cases := []struct{ name, a, b, runtime string }{
		{"whitespace", "SELECT a FROM t WHERE y = @y", "SELECT   a\n\tFROM t\nWHERE y=@y", "sqlite"},
		{"keyword case", "select a from t", "SELECT A FROM T", "sqlite"},
		{"line comment", "SELECT a -- the total\nFROM t", "SELECT a FROM t", "postgres"},
		{"block comment", "SELECT /* x */ a FROM t", "SELECT a FROM t", "postgres"},
		{"trailing semicolon", "SELECT a FROM t;", "SELECT a FROM t", "sqlite"},
		{"double-quoted identifier", `SELECT "amount" FROM "sales"`, "SELECT amount FROM sales", "postgres"},
		{"backtick table path", "SELECT a FROM `acme.sales.orders`", "SELECT a FROM acme.sales.orders", "bigquery"},
		{"hash comment in bigquery", "SELECT a # note\nFROM t", "SELECT a FROM t", "bigquery"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if d := sqlDiff(c.a, c.b, c.runtime); d != "" {
				t.Errorf("want equal, got %s\n a: %s\n b: %s", d, CanonicalSQL(c.a, c.runtime), CanonicalSQL(c.b, c.runtime))
			}
		})
	}
}

func TestCanonicalSQLDifferent(t *testing.T) {
	// Rewrites the attester must catch (§10.3: a rewritten query fails the check).
	cases := []struct{ name, a, b, runtime, want string }{
		{"literal substituted for placeholder", "WHERE year = @year", "WHERE year = 2025", "sqlite", `token 4 differs: sanctioned "@year", executed "2025"`},
		{"placeholder renamed", "WHERE year = @year", "WHERE year = @yr", "sqlite", `"@yr"`},
		{"placeholder case", "WHERE year = @year", "WHERE year = @YEAR", "sqlite", `"@YEAR"`},
		{"string literal case", "WHERE s = 'delivered'", "WHERE s = 'DELIVERED'", "postgres", `'DELIVERED'`},
		{"added filter", "SELECT a FROM t", "SELECT a FROM t WHERE 1 = 1", "sqlite", "extra text"},
		{"dropped join", "SELECT a FROM t JOIN u USING (k)", "SELECT a FROM t", "sqlite", "ends early"},
		{"quoted mixed-case identifier stays quoted", `SELECT "Amount" FROM t`, "SELECT amount FROM t", "postgres", `sanctioned "\"Amount\"`},
		{"bigquery double quotes are strings", `WHERE s = "delivered"`, "WHERE s = delivered", "bigquery", "differs"},
		// Outside BigQuery a quoted dotted name is ONE identifier containing a dot, not the
		// qualified name schema.table: "sales.orders" and sales.orders are different tables.
		{"postgres quoted dotted identifier is one name", `SELECT a FROM "sales.orders"`, "SELECT a FROM sales.orders", "postgres", `"\"sales.orders\""`},
		{"sqlite quoted dotted identifier is one name", `SELECT a FROM "sales.orders"`, "SELECT a FROM sales.orders", "sqlite", "differs"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			d := sqlDiff(c.a, c.b, c.runtime)
			if d == "" {
				t.Fatalf("want a difference, got equal: %s", CanonicalSQL(c.a, c.runtime))
			}
			if !strings.Contains(d, c.want) {
				t.Errorf("diff %q does not mention %q", d, c.want)
			}
		})
	}
}

func TestPlaceholders(t *testing.T) {
	src := "SELECT '@notme', \"@nor_me\" -- @comment\n, @@session_var FROM t /* @x */ WHERE a = @a AND b = @b_2 AND c = @a AND e@>f"
	var got []string
	for _, p := range sqllex.Placeholders(src, "postgres") {
		got = append(got, p.Name)
	}
	want := []string{"a", "b_2", "a"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Placeholders = %v, want %v", got, want)
	}
	if n := len(sqllex.Placeholders("where y = {{ var('year') }} and s = {{ var(\"segment\") }}", "dbt")); n != 2 {
		t.Errorf("dbt placeholders: found %d vars, want 2", n)
	}
}

func TestPositional(t *testing.T) {
	src := "SELECT '@a' FROM t WHERE a = @a AND b = @b OR a2 = @a -- @c\n"
	got, order := positional(src, "postgres")
	want := "SELECT '@a' FROM t WHERE a = $1 AND b = $2 OR a2 = $1 -- @c\n"
	if got != want {
		t.Errorf("positional =\n%q\nwant\n%q", got, want)
	}
	if !reflect.DeepEqual(order, []string{"a", "b"}) {
		t.Errorf("order = %v, want [a b]", order)
	}
}
