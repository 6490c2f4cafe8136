package attest

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"
)

// pgDSN returns the test server's DSN (OKF_TEST_PG_DSN, which .ci/run exports after starting a
// local PostgreSQL) or skips the test when there is no reachable server.
func pgDSN(t *testing.T) string {
	t.Helper()
	dsn := os.Getenv("OKF_TEST_PG_DSN")
	if dsn == "" {
		t.Skip("OKF_TEST_PG_DSN is not set: no PostgreSQL server to test against")
	}
	db, err := sql.Open("pgx", dsn)
	if err != nil {
		t.Skipf("PostgreSQL not reachable: %v", err)
	}
	defer db.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := db.PingContext(ctx); err != nil {
		t.Skipf("PostgreSQL not reachable: %v", err)
	}
	return dsn
}

func TestPostgresRun(t *testing.T) {
	dsn := pgDSN(t)
	db, err := sql.Open("pgx", dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	schema := fmt.Sprintf("okf_attest_%d_%d", os.Getpid(), time.Now().UnixNano())
	for _, stmt := range []string{
		"CREATE SCHEMA " + schema,
		"CREATE TABLE " + schema + ".sales (year integer, region text, sold_on date, amount numeric(12,2))",
		"INSERT INTO " + schema + ".sales VALUES (2025, 'eu', '2025-03-01', 100.50), (2025, 'us', '2025-06-01', 200), (2024, 'eu', '2024-01-01', 50)",
	} {
		if _, err := db.Exec(stmt); err != nil {
			t.Fatal(err)
		}
	}
	t.Cleanup(func() { _, _ = db.Exec("DROP SCHEMA " + schema + " CASCADE") })

	dir := t.TempDir()
	sanctioned := "SELECT SUM(amount) AS revenue, '@year' AS label\nFROM " + schema + ".sales\n" +
		"WHERE year = @year AND (@region::text IS NULL OR region = @region) AND sold_on >= @since::date\n"
	writeFiles(t, dir, map[string]string{
		"revenue.md": "---\ntype: Attested Computation\nruntime: postgres\nparameters:\n" +
			"  - { name: year, type: integer, required: true }\n  - { name: region, type: string, required: false }\n" +
			"  - { name: since, type: date, required: true }\n" +
			"executor: { receipt: [run_id, executed_sql, result] }\nattester: { resource: builtin:sql-equality }\n---\n\n" +
			"# Computation\n\n```sql\n" + sanctioned + "```\n",
		"delete.md": "---\ntype: Attested Computation\nruntime: postgres\nexecutor: { receipt: [run_id] }\n" +
			"attester: { resource: builtin:sql-equality }\n---\n\n# Computation\n\n    DELETE FROM " + schema + ".sales\n",
	})
	b := loadBundle(t, dir)
	comp := Find(b, "revenue", false)
	run := func(params map[string]string) (*Receipt, *Result) {
		t.Helper()
		text, values, err := Prepare(comp, params)
		if err != nil {
			t.Fatal(err)
		}
		rec, err := Execute(context.Background(), comp, text, values, RunOptions{DSN: dsn, Now: testNow})
		if err != nil {
			t.Fatal(err)
		}
		recJSON, _ := json.Marshal(rec)
		var claimed json.RawMessage
		if len(rec.Result) > 0 {
			claimed, _ = json.Marshal(rec.Result[0])
		}
		return rec, Attest(b, comp, NewRequest(comp, text, values, recJSON, claimed), Options{AllowExec: true})
	}

	rec, res := run(map[string]string{"year": "2025", "since": "2025-01-01"})
	if rec.Error != nil {
		t.Fatalf("query failed: %s", *rec.Error)
	}
	got, _ := json.Marshal(rec.Result)
	// The '@year' literal comes back as written: values are bound, never put into the text.
	if !ValuesEqual(json.RawMessage(mustJSON(rec.Result[0])), json.RawMessage("300.5")) || !strings.HasSuffix(string(got), `,"@year"]`) {
		t.Errorf("result %s, want [300.50, \"@year\"]", got)
	}
	if rec.ExecutedSQL != sanctioned {
		t.Errorf("executed_sql %q, want the computation as written", rec.ExecutedSQL)
	}
	wantDriver := "SELECT SUM(amount) AS revenue, '@year' AS label\nFROM " + schema + ".sales\n" +
		"WHERE year = $1 AND ($2::text IS NULL OR region = $2) AND sold_on >= $3::date\n"
	if rec.DriverSQL != wantDriver {
		t.Errorf("driver_sql %q, want %q", rec.DriverSQL, wantDriver)
	}
	if res.Outcome != Pass {
		t.Errorf("attestation %s (%s), want pass", res.Outcome, deref(res.Reason))
	}

	rec, _ = run(map[string]string{"year": "2025", "region": "eu", "since": "2025-01-01"})
	if !ValuesEqual(json.RawMessage(mustJSON(rec.Result[0])), json.RawMessage("100.5")) {
		t.Errorf("eu result %v, want 100.50", rec.Result)
	}
	rec, _ = run(map[string]string{"year": "2025", "since": "2025-04-01"})
	if !ValuesEqual(json.RawMessage(mustJSON(rec.Result[0])), json.RawMessage("200")) {
		t.Errorf("since 2025-04-01 result %v, want 200", rec.Result)
	}

	del := Find(b, "delete", false)
	text, values, err := Prepare(del, nil)
	if err != nil {
		t.Fatal(err)
	}
	drec, err := Execute(context.Background(), del, text, values, RunOptions{DSN: dsn, Now: testNow})
	if err != nil {
		t.Fatal(err)
	}
	if drec.Error == nil || !strings.Contains(*drec.Error, "read-only transaction") {
		t.Errorf("DELETE: error %v, want a read-only transaction refusal", drec.Error)
	}
	var n int
	if err := db.QueryRow("SELECT COUNT(*) FROM " + schema + ".sales").Scan(&n); err != nil || n != 3 {
		t.Errorf("sales has %d rows (%v) after the DELETE run, want 3", n, err)
	}
}
