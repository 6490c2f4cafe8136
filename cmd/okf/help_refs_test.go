package main

import (
	"bytes"
	"io"
	"math/rand/v2"
	"regexp"
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
		if !strings.Contains(help, "§") && !dNumberRef.MatchString(help) {
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

// dNumberRef is what helpCitesDecision finds, as a regular expression.
var dNumberRef = regexp.MustCompile(`\bD\d{1,2}\b`)

// TestCitesDecision: the scan finds a decision number exactly where the regular expression does.
func TestCitesDecision(t *testing.T) {
	for _, s := range []string{"", "D", "D1", "D13", "D130", "(D7)", "xD7", "D7x", "D_7", "D7_", "§4 D18.", "a D", "DD1", "D1D2", "ID10", "see D5, D6", "D99 D", "D100 D2", "Dé1", "é D3"} {
		if got, want := helpCitesDecision(s), dNumberRef.MatchString(s); got != want {
			t.Errorf("helpCitesDecision(%q) = %v, the expression says %v", s, got, want)
		}
	}
	r := rand.New(rand.NewPCG(3, 4))
	pieces := []string{"D", "1", "9", "0", "_", "a", " ", ".", "é", "("}
	for n := 0; n < 50000; n++ {
		var b strings.Builder
		for k := r.IntN(8); k >= 0; k-- {
			b.WriteString(pieces[r.IntN(len(pieces))])
		}
		s := b.String()
		if got, want := helpCitesDecision(s), dNumberRef.MatchString(s); got != want {
			t.Fatalf("helpCitesDecision(%q) = %v, the expression says %v", s, got, want)
		}
	}
}
