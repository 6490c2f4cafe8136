package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestAttestCheckReadsAsLint checks the README's promise that a check okf attest check shares with
// okf lint "reads the same from both commands": every OKF finding of okf attest check is, line for
// line (position, message, code), one of okf lint's, and every finding of lint's Attested
// Computation contract rules (OKF701–OKF709, OKF711, and path-escapes on the computation path) is
// one of attest check's; a link leaving the bundle from a computation's body is lint's alone. The bundle holds one
// computation with a problem for each of those rules.
func TestAttestCheckReadsAsLint(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"index.md": "# Computations\n\n* [Rev](rev.md) - revenue\n* [Bare](bare.md) - bare\n* [File](file.md) - file\n",
		// runtime present, one parameter lacking required, an undeclared and an unused placeholder,
		// a receipt that is a string, an executor file and an attester file that do not exist.
		"rev.md": "---\ntype: Attested Computation\ntitle: Rev\ndescription: Revenue.\nruntime: sqlite\nparameters:\n" +
			"  - { name: start, type: date }\n  - { name: spare, type: string, required: false }\n" +
			"executor:\n  resource: exec/missing.sh\n  receipt: row_count\nattester:\n  resource: attesters/missing.py\n---\n" +
			"# Computation\n\n```sql\nSELECT sum(x) FROM t WHERE d >= @start AND e = @end\n```\n",
		// no runtime, no computation, no executor, no attester.
		"bare.md": "---\ntype: Attested Computation\ntitle: Bare\ndescription: Bare.\n---\n# Bare\n\nNothing yet.\n",
		// a computation file that does not exist, and an attester without a resource.
		"file.md": "---\ntype: Attested Computation\ntitle: File\ndescription: File.\nruntime: sqlite\ncomputation: /queries/nope.sql\n" +
			"executor: { receipt: [] }\nattester: { kind: python }\n---\n# File\n\nSee the query.\n",
		// a computation path that leaves the bundle: lint's path-escapes (OKF603) on a contract field.
		"esc.md": "---\ntype: Attested Computation\ntitle: Esc\ndescription: Esc.\nruntime: sqlite\ncomputation: ../outside.sql\n" +
			"executor: { resource: https://runner.example/run, receipt: [result] }\nattester: { resource: builtin:sql-equality }\n---\n# Esc\n\nSee [far](../far.md).\n",
	}
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	okfRun := func(args ...string) []string {
		t.Helper()
		var out, errb bytes.Buffer
		run(append([]string{"okf"}, args...), strings.NewReader(""), &out, &errb, func(string) string { return "" })
		var lines []string
		for _, l := range strings.Split(strings.TrimSpace(out.String()), "\n") {
			if l != "" {
				lines = append(lines, strings.TrimPrefix(l, dir+"/"))
			}
		}
		return lines
	}
	lintLines := map[string]bool{}
	var contract []string
	for _, l := range okfRun("lint", "--min-severity", "info", "--no-group", "--now", "2026-09-01T00:00:00Z", dir) {
		lintLines[l] = true
		if strings.Contains(l, "[OKF70") || strings.Contains(l, "[OKF711]") || strings.HasPrefix(l, "esc.md:6:") {
			contract = append(contract, l)
		}
	}
	if len(contract) < 11 {
		t.Fatalf("okf lint reported %d contract findings, want one per rule at least:\n%s", len(contract), strings.Join(contract, "\n"))
	}
	check := map[string]bool{}
	for _, l := range okfRun("attest", "check", dir) {
		check[l] = true
		if strings.Contains(l, "[OKF") && !lintLines[l] {
			t.Errorf("okf attest check reports a finding okf lint words otherwise (or does not make):\n  %s", l)
		}
	}
	far := "esc.md:12:5: info: link target \"../far.md\" leaves the bundle: it names a file outside the bundle root, which a consumer given the bundle alone does not have; okf does not follow it (§3, §6.1) [OKF607]"
	if !lintLines[far] {
		t.Errorf("okf lint does not report the body link leaving the bundle:\n  %s", far)
	}
	if check[far] {
		t.Error("okf attest check reports a body link leaving the bundle: that is okf lint's, not the contract's")
	}
	for _, l := range contract {
		if !check[l] {
			t.Errorf("okf lint reports a contract finding okf attest check does not:\n  %s", l)
		}
	}
}
