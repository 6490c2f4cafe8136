package main

import (
	"bytes"
	"os"
	"strings"
	"testing"
)

// TestREADMEFirstCommand runs the README's first command (the okf lint of its install section, from
// the repository root) and checks that it prints exactly the findings the README shows and exits 0.
func TestREADMEFirstCommand(t *testing.T) {
	data, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	s := string(data)
	_, cmdLine, ok := strings.Cut(s, "go build -o bin/okf ./cmd/okf && bin/")
	if !ok {
		t.Fatal("README has no first command")
	}
	cmdLine, _, _ = strings.Cut(cmdLine, "\n")
	_, shown, ok := strings.Cut(s, "(`--min-severity info` shows it):\n\n```text\n")
	if !ok {
		t.Fatal("README shows no output for its first command")
	}
	shown, _, _ = strings.Cut(shown, "```")
	t.Chdir("../..")
	var stdout, stderr bytes.Buffer
	if code := run(strings.Fields(cmdLine), nil, &stdout, &stderr, func(string) string { return "" }); code != 0 {
		t.Errorf("%s: exit %d, the README says 0\n%s", cmdLine, code, stderr.String())
	}
	if stdout.String() != shown {
		t.Errorf("%s prints:\n%s\nthe README shows:\n%s", cmdLine, stdout.String(), shown)
	}
}
