//go:build unix

package main

import (
	"bytes"
	"database/sql"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"
)

// hostileText holds every kind of sequence a CI log or terminal acts on: a legacy workflow command
// (##[), a line-start command after a line break (::error), line and paragraph separators, ESC,
// bidi overrides, isolates and marks, DEL and a C1 control.
const hostileText = "H##[error]x\n::error file=a::b\u2028L\u2029P\x1b[31m\u202eR\u2066I\x7fD\u0085C\u200eM\u061cA"

// yamlQuoted writes s as a YAML double-quoted scalar with every character outside printable ASCII
// and Unicode letters as an escape, so the frontmatter itself is plain text.
func yamlQuoted(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '"' || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r < 0x20 || r == 0x7f || (r >= 0x80 && r <= 0x9f) || unsafeForLog(r):
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}

// unsafeForLog reports the runes a JSON output must never hold raw: C0 controls but the JSON white
// space between tokens, DEL, C1, bidi embeddings, overrides, isolates and marks, line and paragraph
// separators.
func unsafeForLog(r rune) bool {
	switch {
	case r < 0x20 && r != '\t' && r != '\n' && r != '\r', r == 0x7f, r >= 0x80 && r <= 0x9f:
		return true
	case r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069, r == 0x200e, r == 0x200f, r == 0x061c:
		return true
	case r == 0x2028, r == 0x2029:
		return true
	}
	return false
}

var lineStartCommand = regexp.MustCompile(`(?m)^\s*::`)

// checkLogSafe fails when b holds anything a CI runner or terminal would act on: a ##[ anywhere, a
// line that starts with :: after white space, a raw control, bidi or separator rune, invalid UTF-8.
func checkLogSafe(t *testing.T, what string, b []byte) {
	t.Helper()
	if bytes.Contains(b, []byte("##[")) {
		t.Errorf("%s: holds a raw ##[", what)
	}
	if m := lineStartCommand.Find(b); m != nil {
		t.Errorf("%s: a line starts with %q", what, m)
	}
	if !utf8.Valid(b) {
		t.Errorf("%s: invalid UTF-8", what)
	}
	for i, r := range string(b) {
		if unsafeForLog(r) {
			t.Errorf("%s: raw %U at byte %d: %q", what, r, i, b[max(0, i-20):min(len(b), i+20)])
			break
		}
	}
}

// decodedStrings decodes every JSON document in b (one, or one per line) and returns every string
// in them, keys included.
func decodedStrings(t *testing.T, what string, b []byte) []string {
	t.Helper()
	var out []string
	var walk func(v any)
	walk = func(v any) {
		switch v := v.(type) {
		case string:
			out = append(out, v)
		case []any:
			for _, x := range v {
				walk(x)
			}
		case map[string]any:
			for k, x := range v {
				out = append(out, k)
				walk(x)
			}
		}
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	n := 0
	for dec.More() {
		var v any
		if err := dec.Decode(&v); err != nil {
			t.Errorf("%s: not JSON: %v", what, err)
			return out
		}
		walk(v)
		n++
	}
	if n == 0 {
		t.Errorf("%s: no JSON at all", what)
	}
	return out
}

// TestJSONOutputsEscaped runs every command and format that prints or writes JSON over a bundle
// whose titles, actors, status, file name, computation file, receipt and attester details hold
// hostileText, and checks each output two ways: no byte of it can steer a CI log or terminal, and
// decoding it gives back the hostile strings exactly (the escaping is the same JSON).
func TestJSONOutputsEscaped(t *testing.T) {
	dir := t.TempDir()
	b := filepath.Join(dir, "b")
	q := yamlQuoted(hostileText)
	badName := "p##[error]\u2028\u2029\x1b[31m\u202e\u2066\x7f\u0085"
	sqlLine := strings.ReplaceAll(hostileText, "\n", " ")
	details := "d##[error]\u2028\u2029\u202e\x7f\u0085"
	files := map[string]string{
		"index.md": "# Notes\n\n* [A](a.md)\n",
		"a.md": "---\ntype: Note\ntitle: " + q + "\ndescription: " + q + "\nstatus: " + q +
			"\ngenerated:\n  by: " + yamlQuoted("agent:"+hostileText) + "\n  at: 2025-01-01\nverified:\n  - by: " +
			yamlQuoted("human:"+hostileText) + "\n    at: 2025-01-02\n---\n# A\n",
		badName + ".md": "# no frontmatter\n",
		"computations/revenue.md": "---\ntype: Attested Computation\ntitle: " + q + "\nruntime: sqlite\n" +
			"parameters:\n  - { name: year, type: integer, required: true }\ncomputation: /queries/revenue.sql\n" +
			"executor:\n  receipt: [run_id, executed_sql, result]\nattester:\n  resource: builtin:sql-equality\n---\n\nRevenue.\n",
		"computations/ext.md": "---\ntype: Attested Computation\ntitle: " + q + "\nruntime: sqlite\n" +
			"parameters:\n  - { name: year, type: integer, required: true }\ncomputation: /queries/revenue.sql\n" +
			"executor:\n  receipt: [run_id, executed_sql, result]\nattester:\n  resource: attesters/check.sh\n---\n\nExt.\n",
		"queries/revenue.sql": "-- " + sqlLine + "\nSELECT SUM(amount) AS revenue\nFROM sales\nWHERE year = @year\n",
		// Raw separators, bidi, DEL and C1 are valid inside a JSON string; ESC is not, so it is escaped.
		"receipt.json": `{"run_id": "r", "executed_sql": "SELECT 1 ` + strings.ReplaceAll(sqlLine, "\x1b", `\u001b`) +
			`", "result": ["` + strings.ReplaceAll(sqlLine, "\x1b", `\u001b`) + `"]}`,
		"attesters/check.sh": "#!/bin/sh\ncat >/dev/null\nprintf '%s\\n' '{\"ok\": false, \"reason\": \"" + details +
			"\", \"details\": {\"note\": \"" + details + "\"}}'\n",
	}
	for name, content := range files {
		p := filepath.Join(b, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	db := filepath.Join(dir, "sales.db")
	conn, err := sql.Open("sqlite", db)
	if err != nil {
		t.Fatal(err)
	}
	for _, stmt := range []string{"CREATE TABLE sales (year INTEGER, amount REAL)", "INSERT INTO sales VALUES (2025, 100.5)"} {
		if _, err := conn.Exec(stmt); err != nil {
			t.Fatal(err)
		}
	}
	conn.Close()
	t.Chdir(dir)

	out := func(name string) string { return filepath.Join(dir, name) }
	run1 := func(args ...string) []byte {
		t.Helper()
		var stdout, stderr bytes.Buffer
		code := run(append([]string{"okf"}, args...), strings.NewReader(""), &stdout, &stderr, func(string) string { return "" })
		if code > 1 {
			t.Errorf("okf %s: exit %d: %s", strings.Join(args, " "), code, stderr.String())
		}
		checkLogSafe(t, "stderr of okf "+strings.Join(args, " "), stderr.Bytes())
		return stdout.Bytes()
	}
	readOut := func(name string) []byte {
		t.Helper()
		data, err := os.ReadFile(out(name))
		if err != nil {
			t.Errorf("%s: %v", name, err)
		}
		return data
	}
	runArgs := []string{"attest", "run", "computations/revenue", "--bundle", "b", "--param", "year=2025", "--db", "sales.db", "--now", "2026-01-01T00:00:00Z"}
	cases := []struct {
		what string
		out  func() []byte
		want []string // each must be found inside a decoded string
		json bool     // the whole output is JSON (else only checked for safety)
	}{
		{"lint -f json", func() []byte { return run1("lint", "-f", "json", "b") }, []string{badName}, true},
		{"lint -f sarif", func() []byte { return run1("lint", "-f", "sarif", "b") }, []string{badName}, true},
		{"lint -f json -o", func() []byte { run1("lint", "-f", "json", "-o", out("lint.json"), "b"); return readOut("lint.json") }, []string{badName}, true},
		{"lint -f sarif -o", func() []byte { run1("lint", "-f", "sarif", "-o", out("lint.sarif"), "b"); return readOut("lint.sarif") }, []string{badName}, true},
		{"lint --write-baseline", func() []byte { run1("lint", "--write-baseline="+out("base.json"), "b"); return readOut("base.json") }, []string{badName}, true},
		{"lint --list-rules -f json", func() []byte { return run1("lint", "--list-rules", "-f", "json") }, nil, true},
		{"trust -f json", func() []byte { return run1("trust", "-f", "json", "b") }, []string{hostileText, "agent:" + hostileText, "human:" + hostileText}, true},
		{"trust -f json -o", func() []byte { run1("trust", "-f", "json", "-o", out("trust.json"), "b"); return readOut("trust.json") }, []string{hostileText}, true},
		{"trust -f html", func() []byte { return run1("trust", "-f", "html", "b") }, nil, false},
		{"attest list --format json", func() []byte { return run1("attest", "list", "--format", "json", "b") }, []string{hostileText}, true},
		{"attest check -f json", func() []byte { return run1("attest", "check", "-f", "json", "b") }, nil, true},
		{"attest check -f sarif", func() []byte { return run1("attest", "check", "-f", "sarif", "b") }, nil, true},
		{"attest verify --format json", func() []byte {
			return run1("attest", "verify", "computations/revenue", "--bundle", "b", "--receipt", "b/receipt.json", "--format", "json")
		}, []string{"1 h # # [ error ]"}, true},
		{"attest verify --format json, external attester", func() []byte {
			return run1("attest", "verify", "computations/ext", "--bundle", "b", "--receipt", "b/receipt.json", "--format", "json", "--allow-exec", "--unsafe-no-sandbox")
		}, []string{details}, true},
		{"attest verify, external attester (text)", func() []byte {
			return run1("attest", "verify", "computations/ext", "--bundle", "b", "--receipt", "b/receipt.json", "--allow-exec", "--unsafe-no-sandbox")
		}, nil, false},
		{"attest run --format json", func() []byte { return run1(append(runArgs, "--format", "json")...) }, []string{"-- " + sqlLine}, true},
		{"attest run --receipt-out", func() []byte {
			run1(append(runArgs, "--receipt-out", out("receipt.json"))...)
			return readOut("receipt.json")
		}, []string{"-- " + sqlLine}, true},
		{"attest run (text)", func() []byte { return run1(runArgs...) }, nil, false},
	}
	for _, c := range cases {
		t.Run(c.what, func(t *testing.T) {
			b := c.out()
			checkLogSafe(t, c.what, b)
			if !c.json {
				return
			}
			got := decodedStrings(t, c.what, b)
			for _, w := range c.want {
				found := false
				for _, s := range got {
					if strings.Contains(s, w) {
						found = true
						break
					}
				}
				if !found {
					t.Errorf("%s: no decoded string holds %q", c.what, w)
				}
			}
		})
	}
}
