package main

import (
	"bytes"
	"encoding/json"
	"path/filepath"
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
		var report struct {
			Findings []json.RawMessage `json:"findings"`
			Errors   int               `json:"errors"`
			Warnings int               `json:"warnings"`
		}
		if err := json.Unmarshal(stdout.Bytes(), &report); err != nil {
			t.Fatalf("lint %v: exit %d, output not JSON: %v\n%s", which, code, err, stdout.String())
		}
		if code != 0 || report.Errors != 0 || report.Warnings != 0 {
			t.Errorf("lint of the bundle made with %v: exit %d, %d errors, %d warnings\n%s", which, code, report.Errors, report.Warnings, stdout.String())
		}
	}
}
