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

	"github.com/okf-tools/okf/okf"
)

// testBundle is the acceptance bundle: one Attested Computation per attester kind (D18).
var testBundle = filepath.Join("..", "testdata", "bundles", "attest", "bundle")

var testNow = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

// makeSalesDB creates the SQLite database the test bundle's computations read.
func makeSalesDB(t *testing.T) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "sales.db")
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for _, stmt := range []string{
		"CREATE TABLE sales (year INTEGER, region TEXT, amount REAL)",
		"INSERT INTO sales VALUES (2025, 'eu', 100.5), (2025, 'us', 200), (2024, 'eu', 50)",
	} {
		if _, err := db.Exec(stmt); err != nil {
			t.Fatal(err)
		}
	}
	return path
}

func loadBundle(t *testing.T, dir string) *okf.Bundle {
	t.Helper()
	b, err := okf.LoadDir(dir, okf.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// runAndAttest is `okf attest run` without the printing: prepare, execute, attest.
func runAndAttest(t *testing.T, b *okf.Bundle, name, db string, params map[string]string, opts Options) (*Receipt, json.RawMessage, *Result) {
	t.Helper()
	comp := Find(b, name, opts.AllowOutside)
	if comp == nil {
		t.Fatalf("no computation %q", name)
	}
	text, values, err := Prepare(comp, params)
	if err != nil {
		t.Fatalf("Prepare: %v", err)
	}
	rec, err := Execute(context.Background(), comp, text, values, RunOptions{DB: db, Now: testNow})
	if err != nil {
		t.Fatalf("Execute: %v", err)
	}
	recJSON, _ := json.Marshal(rec)
	var claimed json.RawMessage
	if len(rec.Result) > 0 {
		claimed, _ = json.Marshal(rec.Result[0])
	}
	return rec, recJSON, Attest(b, comp, NewRequest(comp, text, values, recJSON, claimed), opts)
}

func TestBundleAttesters(t *testing.T) {
	b := loadBundle(t, testBundle)
	db := makeSalesDB(t)
	cases := []struct {
		concept      string
		allowOutside bool
		python       bool
		want         Outcome
		reason       string // part of the reason ("" for a pass: reason must be null)
		stderr       string // part of the stderr tail
	}{
		{concept: "computations/revenue-builtin", want: Pass},
		{concept: "computations/revenue-exec", want: Pass},
		{concept: "computations/revenue-python", python: true, want: Pass},
		{concept: "computations/slow", want: Error, reason: "the attester timed out after 1s; its process group was killed"},
		{concept: "computations/garbage", want: Error, reason: `malformed verdict: the verdict is not a JSON object`},
		{concept: "computations/crash", want: Error, reason: "the attester exited with status 3", stderr: "cannot reach the audit log"},
		{concept: "computations/outside", want: Error, reason: `attester path "../../outside/attest.sh" leaves the bundle; refused without --allow-outside`},
		{concept: "computations/outside", allowOutside: true, want: Pass},
		{concept: "computations/symlinked", want: Error, reason: `resolves outside the bundle (to "../outside/attest.sh" from the bundle root); refused without --allow-outside`},
		{concept: "computations/symlinked", allowOutside: true, want: Pass},
		{concept: "computations/dangling", want: Unavailable, reason: `attester "attesters/absent.py" does not exist in the bundle`},
	}
	for _, c := range cases {
		name := strings.TrimPrefix(c.concept, "computations/")
		if c.allowOutside {
			name += "/allow-outside"
		}
		t.Run(name, func(t *testing.T) {
			if c.python && !PythonAvailable() {
				t.Skip("python3 is not available")
			}
			timeout := DefaultTimeout // generous: a loaded machine must not turn a pass into a timeout
			if c.want == Error && strings.Contains(c.reason, "timed out") {
				timeout = time.Second
			}
			rec, _, res := runAndAttest(t, b, c.concept, db, map[string]string{"year": "2025"}, Options{AllowExec: true, Timeout: timeout, AllowOutside: c.allowOutside})
			if rec.Error != nil {
				t.Fatalf("the query failed: %s", *rec.Error)
			}
			if got, _ := json.Marshal(rec.Result); string(got) != "[300.5]" {
				t.Errorf("result = %s, want [300.5] (100.5 + 200 for 2025)", got)
			}
			if res.Outcome != c.want {
				t.Fatalf("result %s, want %s (reason %s, stderr %q)", res.Outcome, c.want, deref(res.Reason), res.StderrTail)
			}
			if c.reason == "" && res.Reason != nil {
				t.Errorf("reason %q, want null", *res.Reason)
			}
			if !strings.Contains(deref(res.Reason), c.reason) {
				t.Errorf("reason %q, want it to contain %q", deref(res.Reason), c.reason)
			}
			if !strings.Contains(res.StderrTail, c.stderr) {
				t.Errorf("stderr tail %q, want it to contain %q", res.StderrTail, c.stderr)
			}
			if res.Passed() != (c.want == Pass) {
				t.Errorf("Passed() = %v for %s", res.Passed(), res.Outcome)
			}
		})
	}
}

func TestRunBindsOptionalParameter(t *testing.T) {
	b := loadBundle(t, testBundle)
	rec, _, res := runAndAttest(t, b, "computations/revenue-builtin", makeSalesDB(t), map[string]string{"year": "2024"}, Options{AllowExec: true})
	if got, _ := json.Marshal(rec.Result); string(got) != "[50]" || res.Outcome != Pass {
		t.Errorf("2024: result %s, %s; want [50], pass", got, res.Outcome)
	}
	// The inline computation uses the optional @region; unset, it binds NULL.
	rec, _, _ = runAndAttest(t, b, "computations/revenue-exec", makeSalesDB(t), map[string]string{"year": "2025", "region": "eu"}, Options{AllowExec: true})
	if got, _ := json.Marshal(rec.Result); string(got) != "[100.5]" {
		t.Errorf("2025 eu: result %s, want [100.5]", got)
	}
	if rec.ExecutedSQL != Find(b, "computations/revenue-exec", false).Source.Text || !strings.Contains(rec.ExecutedSQL, "@region") {
		t.Errorf("executed_sql %q is not the computation with placeholders as written", rec.ExecutedSQL)
	}
}

// copyDir copies a folder of regular files (symbolic links are skipped).
func copyDir(t *testing.T, src, dst string) {
	t.Helper()
	err := filepath.Walk(src, func(p string, info os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		target := filepath.Join(dst, rel)
		switch {
		case info.IsDir():
			return os.MkdirAll(target, 0o755)
		case info.Mode().IsRegular():
			data, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			return os.WriteFile(target, data, info.Mode().Perm())
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestSwappedComputationAndEditedReceipt: a receipt from a sanctioned run passes; the same receipt
// fails once the computation file is swapped, and an edited receipt fails against the original
// (§10.3: a swapped computation file or a rewritten query fails the check).
func TestSwappedComputationAndEditedReceipt(t *testing.T) {
	dir := t.TempDir()
	copyDir(t, testBundle, dir)
	b := loadBundle(t, dir)
	_, recJSON, res := runAndAttest(t, b, "computations/revenue-builtin", makeSalesDB(t), map[string]string{"year": "2025"}, Options{AllowExec: true})
	if res.Outcome != Pass {
		t.Fatalf("sanctioned run: %s (%s), want pass", res.Outcome, deref(res.Reason))
	}
	verify := func(b *okf.Bundle, receipt json.RawMessage) *Result {
		comp := Find(b, "computations/revenue-builtin", false)
		text, err := comp.ComputationText()
		if err != nil {
			t.Fatal(err)
		}
		return Attest(b, comp, NewRequest(comp, text, nil, receipt, json.RawMessage("300.5")), Options{AllowExec: true})
	}

	var rec map[string]any
	_ = json.Unmarshal(recJSON, &rec)
	rec["executed_sql"] = strings.Replace(rec["executed_sql"].(string), "@year", "2025", 1)
	edited, _ := json.Marshal(rec)
	if r := verify(b, edited); r.Outcome != Fail || !strings.Contains(deref(r.Reason), `sanctioned "@year", executed "2025"`) {
		t.Errorf("edited receipt: %s (%s), want fail naming the substituted literal", r.Outcome, deref(r.Reason))
	}
	if r := verify(b, recJSON); r.Outcome != Pass {
		t.Errorf("unchanged receipt: %s (%s), want pass", r.Outcome, deref(r.Reason))
	}

	var wrongClaim *Result
	comp := Find(b, "computations/revenue-builtin", false)
	text, _ := comp.ComputationText()
	wrongClaim = Attest(b, comp, NewRequest(comp, text, nil, recJSON, json.RawMessage("301")), Options{AllowExec: true})
	if wrongClaim.Outcome != Fail || !strings.Contains(deref(wrongClaim.Reason), "fidelity") {
		t.Errorf("wrong claimed value: %s (%s), want a fidelity fail", wrongClaim.Outcome, deref(wrongClaim.Reason))
	}

	sqlPath := filepath.Join(dir, "queries", "revenue.sql")
	if err := os.WriteFile(sqlPath, []byte("SELECT SUM(amount) * 1.1 AS revenue\nFROM sales\nWHERE year = @year\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	b2 := loadBundle(t, dir)
	if r := verify(b2, recJSON); r.Outcome != Fail || !strings.Contains(deref(r.Reason), "not the sanctioned computation") {
		t.Errorf("swapped computation file: %s (%s), want fail", r.Outcome, deref(r.Reason))
	}

}

func TestReceiptMissingDeclaredField(t *testing.T) {
	b := loadBundle(t, testBundle)
	comp := Find(b, "computations/revenue-builtin", false)
	text, _ := comp.ComputationText()
	receipt := json.RawMessage(`{"executed_sql": "SELECT SUM(amount) AS revenue FROM sales WHERE year = @year"}`)
	res := Attest(b, comp, NewRequest(comp, text, nil, receipt, nil), Options{AllowExec: true})
	if res.Outcome != Fail || deref(res.Reason) != "the receipt lacks field(s) that executor.receipt requires: result, run_id" {
		t.Errorf("got %s (%s), want fail naming result and run_id", res.Outcome, deref(res.Reason))
	}
}

func TestPrepareRefuses(t *testing.T) {
	b := loadBundle(t, testBundle)
	comp := Find(b, "computations/revenue-exec", false)
	cases := []struct {
		params map[string]string
		want   string
	}{
		{map[string]string{}, `required parameter "year" (integer) is missing`},
		{map[string]string{"year": "2025x"}, `parameter "year" is declared integer, but "2025x" is not an integer`},
		{map[string]string{"year": "2025", "table": "users"}, `parameter "table" is not declared; the computation declares: year, region`},
	}
	for _, c := range cases {
		_, _, err := Prepare(comp, c.params)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Prepare(%v) = %v, want an error containing %q", c.params, err, c.want)
		}
	}
}

func TestExecuteNeedsDatabase(t *testing.T) {
	b := loadBundle(t, testBundle)
	comp := Find(b, "computations/revenue-builtin", false)
	text, values, err := Prepare(comp, map[string]string{"year": "2025"})
	if err != nil {
		t.Fatal(err)
	}
	missing := filepath.Join(t.TempDir(), "absent.db")
	if _, err := Execute(context.Background(), comp, text, values, RunOptions{DB: missing}); err == nil || !strings.Contains(err.Error(), "not an existing file") {
		t.Errorf("Execute on a missing database: %v", err)
	}
	if _, err := os.Stat(missing); err == nil {
		t.Error("Execute created the database file it was told to read")
	}
}

func TestExecuteQueryErrorInReceipt(t *testing.T) {
	b := loadBundle(t, testBundle)
	comp := Find(b, "computations/revenue-builtin", false)
	text, values, _ := Prepare(comp, map[string]string{"year": "2025"})
	empty := filepath.Join(t.TempDir(), "empty.db")
	db, _ := sql.Open("sqlite", empty)
	if _, err := db.Exec("CREATE TABLE other (x INTEGER)"); err != nil {
		t.Fatal(err)
	}
	db.Close()
	rec, err := Execute(context.Background(), comp, text, values, RunOptions{DB: empty, Now: testNow})
	if err != nil {
		t.Fatal(err)
	}
	if rec.Error == nil || !strings.Contains(*rec.Error, "no such table: sales") || rec.Result != nil {
		t.Errorf("receipt error %v, result %v; want the query error and no result", rec.Error, rec.Result)
	}
	recJSON, _ := json.Marshal(rec)
	res := Attest(b, comp, NewRequest(comp, text, values, recJSON, nil), Options{AllowExec: true})
	if res.Outcome != Fail || !strings.Contains(deref(res.Reason), "the run failed") {
		t.Errorf("attesting a failed run: %s (%s), want fail", res.Outcome, deref(res.Reason))
	}
}

func TestExecuteIsReadOnly(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"c.md": "---\ntype: Attested Computation\nruntime: sqlite\nparameters: []\nexecutor: {receipt: [run_id]}\nattester: {resource: builtin:sql-equality}\n---\n\n# Computation\n\n    DELETE FROM sales\n",
	})
	b := loadBundle(t, dir)
	comp := Find(b, "c", false)
	text, values, err := Prepare(comp, nil)
	if err != nil {
		t.Fatal(err)
	}
	path := makeSalesDB(t)
	rec, err := Execute(context.Background(), comp, text, values, RunOptions{DB: path, Now: testNow})
	if err != nil {
		t.Fatal(err)
	}
	if rec.Error == nil {
		t.Error("a DELETE ran on the read-only database without error")
	}
	db, _ := sql.Open("sqlite", path)
	defer db.Close()
	var n int
	if err := db.QueryRow("SELECT COUNT(*) FROM sales").Scan(&n); err != nil || n != 3 {
		t.Errorf("sales has %d rows (%v) after the run, want 3", n, err)
	}
}

func TestRunIDIsReproducible(t *testing.T) {
	b := loadBundle(t, testBundle)
	db := makeSalesDB(t)
	r1, _, _ := runAndAttest(t, b, "computations/revenue-builtin", db, map[string]string{"year": "2025"}, Options{AllowExec: true})
	r2, _, _ := runAndAttest(t, b, "computations/revenue-builtin", db, map[string]string{"year": "2025"}, Options{AllowExec: true})
	r3, _, _ := runAndAttest(t, b, "computations/revenue-builtin", db, map[string]string{"year": "2024"}, Options{AllowExec: true})
	if r1.RunID != r2.RunID || r1.RunID == r3.RunID || !strings.HasPrefix(r1.RunID, "okf-sqlite-") {
		t.Errorf("run ids %q %q %q: want the same inputs and clock to give the same id, other parameters another", r1.RunID, r2.RunID, r3.RunID)
	}
}

func writeFiles(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, body := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		mode := os.FileMode(0o644)
		if strings.HasSuffix(name, ".sh") {
			mode = 0o755
		}
		if err := os.WriteFile(p, []byte(body), mode); err != nil {
			t.Fatal(err)
		}
	}
}
