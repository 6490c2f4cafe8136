package main

import (
	"bytes"
	"io"
	"strings"
	"testing"

	"github.com/urfave/cli/v2"
)

// TestHelpExplainsSpecRefs: every help text that cites a section of the spec (§11) or one of okf's
// readings (D11) says what they are and links to them, so a reader of `okf lint --help` is not
// left with an unexplained "§11".
func TestHelpExplainsSpecRefs(t *testing.T) {
	app := newApp(&env{stdin: strings.NewReader(""), stdout: io.Discard, stderr: io.Discard, getenv: func(string) string { return "" }})
	paths := [][]string{nil}
	var walk func(prefix []string, cmds []*cli.Command)
	walk = func(prefix []string, cmds []*cli.Command) {
		for _, c := range cmds {
			p := append(append([]string{}, prefix...), c.Name)
			paths = append(paths, p)
			walk(p, c.Subcommands)
		}
	}
	walk(nil, app.Commands)
	cited := 0
	for _, p := range paths {
		var stdout, stderr bytes.Buffer
		args := append(append([]string{"okf"}, p...), "--help")
		if code := run(args, nil, &stdout, &stderr, func(string) string { return "" }); code != 0 {
			t.Errorf("%v: exit %d: %s", args, code, stderr.String())
			continue
		}
		help := stdout.String()
		if !strings.Contains(help, "§") && !dNumber.Get().MatchString(help) {
			continue
		}
		cited++
		for _, want := range []string{"okf/SPEC.md", "docs/decisions.md"} {
			if !strings.Contains(help, want) {
				t.Errorf("okf %s --help cites § or D numbers but does not link %s", strings.Join(p, " "), want)
			}
		}
	}
	if cited == 0 {
		t.Error("no help cites a § or D number: the check is out of date")
	}
}
