package attest

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/okf-tools/okf/okf"
)

func render(ds []okf.Diagnostic) string {
	var b strings.Builder
	for _, d := range ds {
		b.WriteString(d.Pos.String() + ": " + d.Severity.String() + ": " + d.Message + " [" + d.Code + "]\n")
	}
	return b.String()
}

// TestCheckAcmeRetail: the corpus copy of acme_retail has no attesters/sql_equality.py, so both of
// its computations have a dangling attester: two warnings (D17, D1), nothing else, no crash.
func TestCheckAcmeRetail(t *testing.T) {
	dir := filepath.Join("..", "..", "shared", "corpus", "acme_retail")
	if _, err := os.Stat(dir); err != nil {
		t.Skip("corpus not available:", err)
	}
	b := loadBundle(t, dir)
	comps := Computations(b, false)
	if len(comps) != 2 {
		t.Fatalf("%d computations, want 2", len(comps))
	}
	got := render(Check(b, comps))
	// Line 14 (13) of each file is `  resource: attesters/sql_equality.py`; the value starts at column 13.
	want := `computations/gross-margin-period.md:14:13: warning: attester "attesters/sql_equality.py" does not exist in the bundle (D14) [OKF707]
computations/revenue-ytd.md:13:13: warning: attester "attesters/sql_equality.py" does not exist in the bundle (D14) [OKF707]
`
	if got != want {
		t.Errorf("Check =\n%s\nwant\n%s", got, want)
	}
	for _, c := range comps {
		if c.Attester.State != "missing" || c.Runtime != "bigquery" || c.Source.Kind != "inline" {
			t.Errorf("%s: attester %s, runtime %q, source %q", c.ID, c.Attester.State, c.Runtime, c.Source.Kind)
		}
	}
	if got := strings.Join(comps[1].LinkedFrom, ","); got != "computations/gross-margin-period,metrics/revenue,policies/revenue-recognition" {
		t.Errorf("revenue-ytd linked from %s", got)
	}
}

func TestCheckTestBundle(t *testing.T) {
	b := loadBundle(t, testBundle)
	got := render(Check(b, Computations(b, false)))
	want := `computations/dangling.md:13:13: warning: attester "attesters/absent.py" does not exist in the bundle (D14) [OKF707]
computations/outside.md:13:13: warning: attester path "../../outside/attest.sh" leaves the bundle; refused without --allow-outside (D14) [ATT012]
computations/symlinked.md:13:13: warning: attester "attesters/linked.sh" resolves outside the bundle (to "../outside/attest.sh" from the bundle root); refused without --allow-outside [ATT012]
`
	if got != want {
		t.Errorf("Check =\n%s\nwant\n%s", got, want)
	}
}

// TestCheckContract covers each static check of D17 on an in-memory bundle.
func TestCheckContract(t *testing.T) {
	fsys := fstest.MapFS{
		"ok.md": {Data: []byte("---\ntype: Attested Computation\nruntime: postgres\nparameters:\n  - { name: y, type: integer, required: true }\n" +
			"executor: { receipt: [run_id, executed_sql, result] }\nattester: { resource: builtin:sql-equality }\n---\n\n# Computation\n\n    SELECT 1 WHERE 2 = @y\n")},
		"bare.md": {Data: []byte("---\ntype: Attested Computation\n---\n\nNo computation here.\n")},
		"both.md": {Data: []byte("---\ntype: Attested Computation\nruntime: sqlite\ncomputation: q.sql\n" +
			"executor: { receipt: [] }\nattester: { resource: https://example.com/attester }\n---\n\n# Computation\n\n```sql\nSELECT 1\n```\n")},
		"q.sql": {Data: []byte("SELECT 1\n")},
		"two.md": {Data: []byte("---\ntype: Attested Computation\nruntime: sqlite\nparameters:\n  - { name: a, type: integer }\n  - { type: string, required: true }\n" +
			"  - { name: b, type: geography, required: false }\n  - { name: a, type: integer, required: true }\n" +
			"executor: { receipt: [result] }\nattester: { resource: builtin:nope }\n---\n\n# Computation\n\n```sql\nSELECT @a, @zz\n```\n\n```sql\nSELECT 2\n```\n")},
		"dbt.md": {Data: []byte("---\ntype: Attested Computation\nruntime: dbt\nparameters:\n  - { name: year, type: integer, required: true }\n  - { name: seg, type: string, required: true }\n" +
			"executor: { receipt: [compiled_sql] }\nattester: { resource: /x.py }\n---\n\n# Computation\n\n    select * from {{ ref('f') }} where y = {{ var('year') }} and o = {{ var('other') }}\n")},
		"esc.md": {Data: []byte("---\ntype: Attested Computation\nruntime: sqlite\ncomputation: ../outside.sql\nexecutor: { receipt: [x] }\nattester: { resource: builtin:fidelity }\n---\n")},
		"undecl.md": {Data: []byte("---\ntype: Attested Computation\nruntime: sqlite\nparameters:\n  - { name: a, type: integer, required: true }\n" +
			"executor: { receipt: [x] }\nattester: { resource: builtin:sql-equality }\n---\n\n# Computation\n\n```sql\nSELECT @a, @zz, '@not' FROM t -- @nor\n```\n")},
		"py.md": {Data: []byte("---\ntype: Attested Computation\nruntime: python\nparameters:\n  - { name: n, type: int, required: true }\n" +
			"executor: { receipt: [value] }\nattester: { resource: builtin:fidelity }\n---\n\n# Computation\n\n    def f(n): return n\n")},
		"metric.md": {Data: []byte("---\ntype: Metric\n---\n\nNot a computation: [ok](ok.md)\n")},
	}
	b, err := okf.Load(fsys, okf.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	comps := Computations(b, false)
	if len(comps) != 8 {
		t.Fatalf("%d computations, want 8", len(comps))
	}
	got := render(Check(b, comps))
	// Each line checked by hand against D17: positions are the offending key, value or block; two.md
	// has two blocks, so its placeholders are not checked (there is no single computation to read).
	want := `bare.md:2:7: warning: Attested Computation has no runtime; it is REQUIRED for this type and says how parameters bind (§10.2) [OKF701]
bare.md:2:7: warning: no computation: add a single code block under # Computation or a ` + "`computation`" + ` path (§10.3) [OKF702]
both.md:4:1: warning: both ` + "`computation`" + ` and a code block under # Computation are given; keep exactly one (§10.3) [OKF702]
both.md:6:23: warning: attester "https://example.com/attester" is a URL; okf runs only files inside the bundle and builtin:NAME [ATT013]
dbt.md:6:5: warning: parameter "seg" is declared but the computation never uses var('seg') (D17) [OKF705]
dbt.md:8:23: warning: attester "/x.py" does not exist in the bundle (D14) [OKF707]
dbt.md:13:5: warning: the computation uses var('other'), which no parameter declares (D17) [OKF704]
esc.md:4:14: warning: computation "../outside.sql" leaves the bundle and is never opened (D14) [OKF708]
two.md:5:5: warning: parameter a lacks required (true or false) (§10.2) [OKF703]
two.md:6:5: warning: parameter #2 lacks name (§10.2) [OKF703]
two.md:7:22: info: parameter "b" has type "geography", which okf cannot check values against (known: integer, number, string, boolean, date, timestamp) [ATT014]
two.md:8:5: warning: parameter "a" is declared twice [ATT015]
two.md:10:23: warning: unknown built-in attester "builtin:nope"; known: builtin:fidelity, builtin:sql-equality [ATT013]
two.md:19:1: warning: 2 code blocks under # Computation; the computation must be a single block (§10.3) [OKF702]
undecl.md:12:1: warning: the computation uses @zz, which no parameter declares (D17) [OKF704]
`
	if got != want {
		t.Errorf("Check =\n%s\nwant\n%s", got, want)
	}
}
