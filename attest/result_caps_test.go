package attest

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// capShapes are queries whose result (or a value SQLite builds on the way) is far larger than the
// caps: each must end with an error naming the cap it passed.
var capShapes = []struct{ name, query, want string }{
	{"zeroblob past SQLite's own limit", "SELECT zeroblob(2000000000)", "attest.MaxValueBytes"},
	{"zeroblob", "SELECT zeroblob(400000000)", "attest.MaxValueBytes"},
	{"randomblob", "SELECT randomblob(400000000)", "attest.MaxValueBytes"},
	{"printf", "SELECT printf('%.*c', 400000000, 'x')", "attest.MaxValueBytes"},
	{"replace", "SELECT replace(hex(zeroblob(20000)), '0', hex(zeroblob(5000)))", "attest.MaxValueBytes"},
	{"group_concat", "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c LIMIT 400000) SELECT group_concat(hex(randomblob(500))) FROM c", "attest.MaxValueBytes"},
	{"millions of rows", "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c LIMIT 5000000) SELECT x FROM c", "attest.MaxResultRows"},
	{"wide rows", "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c LIMIT 500) SELECT " + wideColumns(500) + " FROM c", "attest.MaxResultCells"},
	{"many large values", "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c LIMIT 2000) SELECT randomblob(1000000) FROM c", "attest.MaxResultBytes"},
	{"one value past the result cap", "SELECT randomblob(3000000)", "attest.MaxResultBytes"},
	{"sorted millions of rows", "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c LIMIT 3000000) SELECT x FROM c ORDER BY -x", "attest.MaxResultRows"},
}

func wideColumns(n int) string {
	cols := make([]string, n)
	for i := range cols {
		cols[i] = "x AS c" + strconv.Itoa(i)
	}
	return strings.Join(cols, ", ")
}

// pgCapShapes are capShapes for PostgreSQL, whose server builds a value as large as 1 GB.
var pgCapShapes = []struct{ name, query, want string }{
	{"repeat", "SELECT repeat('x', 400000000)", "attest.MaxValueBytes"},
	{"millions of rows", "SELECT generate_series(1, 50000000)", "attest.MaxResultRows"},
	{"wide rows", "SELECT " + strings.ReplaceAll(wideColumns(500), "x AS", "g AS") + " FROM generate_series(1, 500) g", "attest.MaxResultCells"},
	{"many large values", "SELECT repeat('x', 1000000) FROM generate_series(1, 2000)", "attest.MaxResultBytes"},
}

// TestResultCapsPostgres is TestResultCaps on the test server (OKF_TEST_PG_DSN).
func TestResultCapsPostgres(t *testing.T) {
	dsn := pgDSN(t)
	runCapShapes(t, "postgres", dsn, pgCapShapes)
}

// TestResultCaps runs each hostile query in a child process (this test binary again) and checks
// that the receipt's error names the cap, that the receipt stays small, and that the child's peak
// resident memory (VmHWM) stays far below what the result would take.
func TestResultCaps(t *testing.T) {
	path := filepath.Join(t.TempDir(), "db.sqlite")
	makeDB(t, path, 1)
	runCapShapes(t, "sqlite", path, capShapes)
}

func runCapShapes(t *testing.T, runtime, db string, shapes []struct{ name, query, want string }) {
	if testing.Short() {
		t.Skip("starts a process per query")
	}
	for _, c := range shapes {
		t.Run(c.name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute) // a hang guard only
			defer cancel()
			cmd := exec.CommandContext(ctx, os.Args[0], "-test.run=^TestResultCapChild$")
			cmd.Env = append(os.Environ(), "OKF_CAP_RUNTIME="+runtime, "OKF_CAP_DB="+db, "OKF_CAP_QUERY="+c.query)
			out, err := cmd.CombinedOutput()
			if err != nil {
				t.Fatalf("child: %v\n%.2000s", err, out)
			}
			var got struct {
				Error   string
				Receipt int
				PeakKB  int
			}
			sc := bufio.NewScanner(strings.NewReader(string(out)))
			for sc.Scan() {
				if line, ok := strings.CutPrefix(sc.Text(), "CAPRESULT "); ok {
					if err := json.Unmarshal([]byte(line), &got); err != nil {
						t.Fatal(err)
					}
				}
			}
			t.Logf("peak %d MiB, receipt %d bytes, error %q", got.PeakKB>>10, got.Receipt, got.Error)
			if !strings.Contains(got.Error, c.want) {
				t.Errorf("error %q, want one naming %s", got.Error, c.want)
			}
			if got.Receipt > 64<<10 {
				t.Errorf("receipt of %d bytes", got.Receipt)
			}
			if got.PeakKB > 200<<10 {
				t.Errorf("peak resident memory %d MiB", got.PeakKB>>10)
			}
		})
	}
}

// TestResultCapChild is the child of TestResultCaps: it runs OKF_CAP_QUERY on OKF_CAP_DB and
// (a DSN for runtime postgres) and prints the receipt's error, its size and the process's peak resident memory.
func TestResultCapChild(t *testing.T) {
	query := os.Getenv("OKF_CAP_QUERY")
	if query == "" {
		t.Skip("run by TestResultCaps")
	}
	runtime, db := os.Getenv("OKF_CAP_RUNTIME"), os.Getenv("OKF_CAP_DB")
	opts := RunOptions{DB: db, Now: testNow}
	if runtime == "postgres" {
		opts = RunOptions{DSN: db, Now: testNow}
	}
	comp, text, values := sqlComputation(t, runtime, query)
	rec, err := Execute(context.Background(), comp, text, values, opts)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(rec)
	status, _ := os.ReadFile("/proc/self/status")
	peak := 0
	for _, line := range strings.Split(string(status), "\n") {
		if v, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			peak, _ = strconv.Atoi(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")))
		}
	}
	res, _ := json.Marshal(map[string]any{"Error": deref(rec.Error), "Receipt": len(b), "PeakKB": peak})
	fmt.Printf("CAPRESULT %s\n", res)
}

// TestResultCapsKeepRealResults: a result at the caps is answered as before, with its columns,
// first row and row count.
func TestResultCapsKeepRealResults(t *testing.T) {
	path := filepath.Join(t.TempDir(), "db.sqlite")
	makeDB(t, path, 1)
	comp, text, values := sqlComputation(t, "sqlite", "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c LIMIT 10000) SELECT x AS n, 'row' AS label FROM c")
	rec, err := Execute(context.Background(), comp, text, values, RunOptions{DB: path, Now: testNow})
	if err != nil {
		t.Fatal(err)
	}
	if rec.Error != nil || rec.RowCount != MaxResultRows || strings.Join(rec.Columns, ",") != "n,label" || string(mustJSON(rec.Result)) != `[1,"row"]` {
		t.Errorf("error %q, %d rows, columns %v, result %s", deref(rec.Error), rec.RowCount, rec.Columns, mustJSON(rec.Result))
	}
}
