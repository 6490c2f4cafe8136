package main

import (
	"database/sql"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/okf-tools/okf/lint"
	"github.com/rogpeppe/go-internal/testscript"

	_ "modernc.org/sqlite"
)

// sqliteExecCmd is the testscript command "sqlite-exec DB FILE": it runs the SQL statements in FILE
// (separated by ";" at line ends) against the SQLite database DB, creating it, so attest_*.txtar
// sessions can build the database `okf attest run --db` reads without a sqlite3 binary.
func sqliteExecCmd(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: sqlite-exec DB FILE")
	}
	db, err := sql.Open("sqlite", ts.MkAbs(args[0]))
	if err != nil {
		ts.Fatalf("sqlite-exec: %v", err)
	}
	defer db.Close()
	for _, stmt := range strings.Split(ts.ReadFile(args[1]), ";\n") {
		if strings.TrimSpace(stmt) == "" {
			continue
		}
		if _, err := db.Exec(stmt); err != nil {
			ts.Fatalf("sqlite-exec: %v", err)
		}
	}
}

// TestAttestCheckAcmeRetail runs `okf attest check` on the corpus copy of acme_retail, whose
// attesters/sql_equality.py was left out: two warnings for the dangling paths (lint's OKF707, as
// okf lint reports them), in okf lint's text format with its summary; exit 0 by default (warnings, as okf lint), 1
// with --fail-on warning; no crash.
func TestAttestCheckAcmeRetail(t *testing.T) {
	dir := filepath.Join("..", "..", "..", "shared", "corpus", "acme_retail")
	if _, err := os.Stat(dir); err != nil {
		t.Skip("corpus not available:", err)
	}
	var out, errOut strings.Builder
	code := run([]string{"okf", "attest", "check", "--fail-on", "warning", dir}, strings.NewReader(""), &out, &errOut, func(string) string { return "" })
	// Paths are shown from the working directory, as okf lint shows them.
	p := filepath.ToSlash(dir) + "/"
	want := p + `computations/gross-margin-period.md:14:13: warning: attester.resource "attesters/sql_equality.py" does not exist in the bundle (looked for "/computations/attesters/sql_equality.py" and "/attesters/sql_equality.py"): the computation cannot be attested (§10.2, D17) [OKF707]
` + p + `computations/revenue-ytd.md:13:13: warning: attester.resource "attesters/sql_equality.py" does not exist in the bundle (looked for "/computations/attesters/sql_equality.py" and "/attesters/sql_equality.py"): the computation cannot be attested (§10.2, D17) [OKF707]

0 errors, 2 warnings, 0 infos
§ numbers are sections of the OKF v0.2 spec (` + lint.SpecURL + `); D numbers are okf's decisions (` + lint.DecisionsURL + `)
`
	if code != exitFindings || out.String() != want || errOut.String() != "" {
		t.Errorf("exit %d, stdout\n%s\nstderr %q; want exit 1 and\n%s", code, out.String(), errOut.String(), want)
	}
	out.Reset()
	if code := run([]string{"okf", "attest", "check", dir}, strings.NewReader(""), &out, &errOut, func(string) string { return "" }); code != exitOK {
		t.Errorf("default --fail-on error: exit %d, want 0 (the findings are warnings)", code)
	}
}
