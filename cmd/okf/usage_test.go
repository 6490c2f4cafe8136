package main

import (
	"io"
	"strings"
	"testing"

	"github.com/urfave/cli/v2"
)

// TestFlagPlaceholders checks that every flag taking a value says what it takes in the help
// (`--posts DIR`), never urfave/cli's generic "value".
func TestFlagPlaceholders(t *testing.T) {
	app := newApp(&env{stdin: strings.NewReader(""), stdout: io.Discard, stderr: io.Discard, getenv: func(string) string { return "" }})
	var walk func(path string, cmds []*cli.Command)
	walk = func(path string, cmds []*cli.Command) {
		for _, c := range cmds {
			for _, f := range c.Flags {
				df, ok := f.(cli.DocGenerationFlag)
				if !ok || !df.TakesValue() {
					continue
				}
				if u := df.GetUsage(); strings.Count(u, "`") < 2 {
					t.Errorf("%s %s: the usage names no placeholder (write it in `backquotes`)", path+" "+c.Name, f.Names()[0])
				}
			}
			walk(path+" "+c.Name, c.Subcommands)
		}
	}
	walk("okf", app.Commands)
}
