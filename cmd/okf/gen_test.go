package main

import (
	"bytes"
	"encoding/json"
	"path/filepath"

	"github.com/okf-tools/okf/lint"
	"testing"
)

// TestGenContentLints generates the bundle of the test content repository (imports, JSX, code,
// math, a draft, a missing slug, Unicode titles) with --all and with the concept map, and lints
// it: zero errors and zero warnings, as the issue asks. It runs the real commands, so gen and lint
// meet only here (generate/ must not import lint/).
func TestGenContentLints(t *testing.T) {
	content := filepath.Join("..", "..", "testdata", "content")
	for _, which := range [][]string{{"--all"}, {"--concepts", filepath.Join(content, "concepts.yaml")}} {
		out := t.TempDir()
		args := append([]string{"okf", "gen", "--posts", filepath.Join(content, "posts"), "--site", "https://blog.example.com",
			"--out", out, "--now", "2026-11-30T12:00:00Z"}, which...)
		var stdout, stderr bytes.Buffer
		if code := run(args, nil, &stdout, &stderr, func(string) string { return "" }); code != 0 {
			t.Fatalf("gen %v: exit %d\n%s%s", which, code, stdout.String(), stderr.String())
		}
		stdout.Reset()
		code := run([]string{"okf", "lint", "--format", "json", out}, nil, &stdout, &stderr, func(string) string { return "" })
		report := lintSummary(t, stdout.Bytes())
		if code != 0 || report.Errors != 0 || report.Warnings != 0 || report.Files != 0 {
			t.Errorf("lint of the bundle made with %v: exit %d, %+v\n%s", which, code, report, stdout.String())
		}
	}
}

// lintSummary reads the summary of lint's JSON report, failing when it has none (a report without
// a "summary" object would read as zero findings and let every test pass).
func lintSummary(t *testing.T, out []byte) lint.JSONSummary {
	t.Helper()
	var report struct {
		Findings []json.RawMessage `json:"findings"`
		Summary  *lint.JSONSummary `json:"summary"`
	}
	if err := json.Unmarshal(out, &report); err != nil {
		t.Fatalf("lint output is not JSON: %v\n%s", err, out)
	}
	if report.Summary == nil || report.Findings == nil {
		t.Fatalf("lint output has no summary or findings:\n%s", out)
	}
	if n := report.Summary.Errors + report.Summary.Warnings + report.Summary.Infos; n != len(report.Findings) {
		t.Fatalf("lint summary counts %d findings, the list has %d:\n%s", n, len(report.Findings), out)
	}
	return *report.Summary
}
