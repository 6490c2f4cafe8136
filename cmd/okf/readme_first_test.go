package main

import (
	"bytes"
	"fmt"
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// readmeFile is a file the README shows whole, and readmeOutput a command it shows with its output
// and exit code. Both are marked with an HTML comment naming this test, so a reader can trust them.
var (
	readmeFile   = regexp.MustCompile("(?s)<!-- the file (\\S+), checked by cmd/okf/readme_first_test.go -->\n```[a-z]*\n(.*?)```\n")
	readmeOutput = regexp.MustCompile("(?s)<!-- the output of this command, checked by cmd/okf/readme_first_test.go: exit (\\d+) -->\n```text\n\\$ okf ([^\n]*)\n(.*?)```\n")
)

// TestREADMEExamples checks what the README shows: each file it shows is that file of the
// repository, byte for byte, and each command it shows prints exactly the output shown (standard
// output, then standard error) and exits with the code shown, run from the repository root. Every
// command shown fixes its clock (--now), so the output is the same on any date, but a usage error,
// which is the same on any date anyway. After a change to
// what okf prints, OKF_UPDATE_README=1 go test ./cmd/okf -run TestREADME rewrites the shown
// output and exit codes from what the commands print (then read the diff: it is what users see).
func TestREADMEExamples(t *testing.T) {
	data, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	t.Chdir("../..")
	readme := string(data)
	update := os.Getenv("OKF_UPDATE_README") == "1"
	files := readmeFile.FindAllStringSubmatchIndex(readme, -1)
	outputs := readmeOutput.FindAllStringSubmatchIndex(readme, -1)
	if len(files) == 0 || len(outputs) == 0 {
		t.Fatalf("the README shows %d checked files and %d checked commands, want at least one of each", len(files), len(outputs))
	}
	type edit struct {
		from, to int
		text     string
	}
	var edits []edit
	for _, m := range files {
		name, shown := readme[m[2]:m[3]], readme[m[4]:m[5]]
		want, err := os.ReadFile(name)
		if err != nil {
			t.Errorf("the README shows %s: %v", name, err)
			continue
		}
		if shown != string(want) {
			edits = append(edits, edit{m[4], m[5], string(want)})
			if !update {
				t.Errorf("the README shows %s as:\n%s\nthe file is:\n%s", name, shown, want)
			}
		}
	}
	for _, m := range outputs {
		wantCode, _ := strconv.Atoi(readme[m[2]:m[3]])
		cmdLine, shown := readme[m[4]:m[5]], readme[m[6]:m[7]]
		if !strings.Contains(cmdLine, "--now") && wantCode != exitUsage {
			t.Errorf("okf %s: the README shows its output without --now, so it changes with the date", cmdLine)
		}
		var stdout, stderr bytes.Buffer
		code := run(append([]string{"okf"}, strings.Fields(cmdLine)...), nil, &stdout, &stderr, func(string) string { return "" })
		got := stdout.String() + stderr.String()
		if update {
			if code != wantCode {
				edits = append(edits, edit{m[2], m[3], fmt.Sprint(code)})
			}
			if got != shown {
				edits = append(edits, edit{m[6], m[7], got})
			}
			continue
		}
		if code != wantCode {
			t.Errorf("okf %s: exit %d, the README says %d\n%s", cmdLine, code, wantCode, stderr.String())
		}
		if got != shown {
			t.Errorf("okf %s prints:\n%s\nthe README shows:\n%s\n(OKF_UPDATE_README=1 go test ./cmd/okf -run TestREADME rewrites it)", cmdLine, got, shown)
		}
	}
	if update && len(edits) > 0 {
		// Apply from the end, so earlier offsets stay right.
		for i := len(edits) - 1; i >= 0; i-- {
			for j := 0; j < i; j++ {
				if edits[j].from > edits[i].from {
					edits[i], edits[j] = edits[j], edits[i]
				}
			}
		}
		out := readme
		for i := len(edits) - 1; i >= 0; i-- {
			e := edits[i]
			out = out[:e.from] + e.text + out[e.to:]
		}
		if err := os.WriteFile("README.md", []byte(out), 0o644); err != nil {
			t.Fatal(err)
		}
		t.Logf("README.md: %d examples rewritten", len(edits))
	}
}
