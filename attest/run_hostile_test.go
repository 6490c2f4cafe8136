package attest

import (
	"context"
	"database/sql"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// sqlComputation writes a bundle with one parameterless Attested Computation c running query on
// runtime, and returns it prepared.
func sqlComputation(t *testing.T, runtime, query string) (*Computation, string, map[string]any) {
	t.Helper()
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"c.md": "---\ntype: Attested Computation\nruntime: " + runtime +
		"\nexecutor:\n  receipt: [executed_sql]\nattester:\n  resource: builtin:sql-equality\n---\n\n# Computation\n\n```sql\n" + query + "\n```\n"})
	comp := Find(loadBundle(t, dir), "c", false)
	text, values, err := Prepare(comp, nil)
	if err != nil {
		t.Fatal(err)
	}
	return comp, text, values
}

// makeDB creates a SQLite database at path holding table t with the single value v. It is built
// under a plain name and renamed, so a name with URI characters cannot confuse the setup.
func makeDB(t *testing.T, path string, v int) {
	t.Helper()
	tmp := filepath.Join(t.TempDir(), "plain.db")
	db, err := sql.Open("sqlite", tmp)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec("CREATE TABLE t (v INTEGER)"); err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec("INSERT INTO t VALUES (?)", v); err != nil {
		t.Fatal(err)
	}
	db.Close()
	if err := os.Rename(tmp, path); err != nil {
		t.Fatal(err)
	}
}

func TestSQLiteAttachDenied(t *testing.T) {
	dir := t.TempDir()
	main, other, fresh := filepath.Join(dir, "main.db"), filepath.Join(dir, "other.db"), filepath.Join(dir, "fresh.db")
	makeDB(t, main, 1)
	makeDB(t, other, 2)
	for _, target := range []string{other, fresh} {
		comp, text, values := sqlComputation(t, "sqlite", "ATTACH DATABASE '"+target+"' AS o")
		rec, err := Execute(context.Background(), comp, text, values, RunOptions{DB: main, Now: testNow})
		if err != nil {
			t.Fatal(err)
		}
		if rec.Error == nil || !strings.Contains(*rec.Error, "not authorized") {
			t.Errorf("ATTACH %s: error %v, want the authorizer's refusal", filepath.Base(target), rec.Error)
		}
	}
	if _, err := os.Stat(fresh); err == nil {
		t.Error("ATTACH created a new database file")
	}
	// A function that reads another schema through ATTACH is refused the same way, and the one
	// database given still answers.
	comp, text, values := sqlComputation(t, "sqlite", "SELECT v FROM t")
	rec, err := Execute(context.Background(), comp, text, values, RunOptions{DB: main, Now: testNow})
	if err != nil || rec.Error != nil || len(rec.Result) != 1 || string(mustJSON(rec.Result[0])) != "1" {
		t.Errorf("SELECT on the given database: %v %v %v, want result [1]", err, rec.Error, rec.Result)
	}
}

// TestSQLitePathWithURICharacters opens a database whose file name holds '?', '#' and '%': each
// must name that file, not start URI parameters or a fragment.
func TestSQLitePathWithURICharacters(t *testing.T) {
	dir := t.TempDir()
	for i, name := range []string{"s.db?mode=memory", "s#frag.db", "s%3Fx.db", "a b?c#d%20e.db"} {
		path := filepath.Join(dir, name)
		makeDB(t, path, 10+i)
		comp, text, values := sqlComputation(t, "sqlite", "SELECT v FROM t")
		rec, err := Execute(context.Background(), comp, text, values, RunOptions{DB: path, Now: testNow})
		if err != nil {
			t.Fatalf("%q: %v", name, err)
		}
		want, _ := json.Marshal(10 + i)
		if rec.Error != nil || len(rec.Result) != 1 || string(mustJSON(rec.Result[0])) != string(want) {
			t.Errorf("%q: error %v result %v, want [%s] from that file", name, deref(rec.Error), rec.Result, want)
		}
	}
	// No other file was created beside them (a misread name would open or create another).
	ents, _ := os.ReadDir(dir)
	if len(ents) != 4 {
		var names []string
		for _, e := range ents {
			names = append(names, e.Name())
		}
		t.Errorf("the folder holds %q, want only the four databases", names)
	}
}

// TestSQLiteQueryTimeout runs a query that never ends: the timeout stops it and the receipt says so.
func TestSQLiteQueryTimeout(t *testing.T) {
	path := filepath.Join(t.TempDir(), "db.sqlite")
	makeDB(t, path, 1)
	comp, text, values := sqlComputation(t, "sqlite", "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT count(*) FROM c")
	rec, err := Execute(context.Background(), comp, text, values, RunOptions{DB: path, Now: testNow, Timeout: 500 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	if rec.Error == nil || !strings.Contains(*rec.Error, "longer than the 500ms query timeout") {
		t.Errorf("error %v, want the query timeout", deref(rec.Error))
	}
}

// TestPostgresSessionLimits: the transaction a computation runs in is read-only and carries the
// query timeout as statement_timeout.
func TestPostgresSessionLimits(t *testing.T) {
	dsn := pgDSN(t)
	comp, text, values := sqlComputation(t, "postgres", "SELECT current_setting('transaction_read_only') AS ro, current_setting('statement_timeout') AS st")
	rec, err := Execute(context.Background(), comp, text, values, RunOptions{DSN: dsn, Now: testNow, Timeout: 1500 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	if rec.Error != nil || len(rec.Result) != 2 || rec.Result[0] != "on" || rec.Result[1] != "1500ms" {
		t.Errorf("error %v result %v, want [on 1500ms]", deref(rec.Error), rec.Result)
	}
	comp, text, values = sqlComputation(t, "postgres", "SELECT pg_sleep(30)")
	rec, err = Execute(context.Background(), comp, text, values, RunOptions{DSN: dsn, Now: testNow, Timeout: 500 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	if rec.Error == nil {
		t.Error("pg_sleep(30) with a 500ms timeout: no error, want it stopped")
	}
}
