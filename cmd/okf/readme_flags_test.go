package main

import (
	"io"
	"os"
	"strings"
	"testing"
)

// TestREADMELintFlags checks that every flag of okf lint has a row in the README's okf lint flag
// table (the "every flag in --help appears in the README"), and that every row names a
// flag okf lint has.
func TestREADMELintFlags(t *testing.T) {
	data, err := os.ReadFile("../../docs/lint.md")
	if err != nil {
		t.Fatal(err)
	}
	s := string(data)
	start := strings.Index(s, "# `okf lint`")
	if start < 0 {
		t.Fatal("README has no okf lint section")
	}
	s = s[start:]
	from := strings.Index(s, "## Flags")
	to := strings.Index(s, "## Which bundle")
	if from < 0 || to < from {
		t.Fatal("README's okf lint section has no Flags table before Which bundle")
	}
	rows := map[string]bool{}
	for _, line := range strings.Split(s[from:to], "\n") {
		if !strings.HasPrefix(line, "| `") {
			continue
		}
		cell := strings.Split(line, "|")[1]
		for _, f := range strings.Fields(strings.NewReplacer("`", " ", ",", " ", "[", " ", "=", " ").Replace(cell)) {
			if strings.HasPrefix(f, "--") {
				rows[strings.TrimPrefix(f, "--")] = true
			}
		}
	}
	app := newApp(&env{stdin: strings.NewReader(""), stdout: io.Discard, stderr: io.Discard, getenv: func(string) string { return "" }})
	flags := map[string]bool{}
	for _, c := range app.Commands {
		if c.Name != "lint" {
			continue
		}
		for _, f := range c.Flags {
			name := f.Names()[0]
			flags[name] = true
			if name != "help" && !rows[name] {
				t.Errorf("okf lint --%s has no row in the README's flag table", name)
			}
		}
	}
	for name := range rows {
		if !flags[name] {
			t.Errorf("the README's okf lint flag table has --%s, which okf lint does not take", name)
		}
	}
}
