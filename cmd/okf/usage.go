package main

import (
	"fmt"
	"slices"
	"strings"

	"github.com/okf-tools/okf/okf"
	"github.com/urfave/cli/v2"
)

// finishCommands applies the conventions every command shares: no `help` subcommand listed under a
// command, and a usage error (unknown flag, missing value) is one line on standard error with a
// "did you mean" when a flag is close, and a hint to run the command's --help; never the whole help
// on standard output, which would corrupt `-f json > file`.
func finishCommands(app *cli.App) {
	var walk func(path string, cmds []*cli.Command)
	walk = func(path string, cmds []*cli.Command) {
		for _, c := range cmds {
			c.HideHelpCommand = true
			full := path + " " + c.Name
			flags := c.Flags
			c.OnUsageError = func(_ *cli.Context, err error, _ bool) error {
				return flagUsageErr(full, flags, err)
			}
			walk(full, c.Subcommands)
		}
	}
	walk(app.Name, app.Commands)
	app.OnUsageError = func(_ *cli.Context, err error, _ bool) error {
		return flagUsageErr(app.Name, app.Flags, err)
	}
}

// flagUsageErr turns a flag-parsing error into okf's usage error.
func flagUsageErr(cmd string, flags []cli.Flag, err error) error {
	msg := err.Error()
	prefix := ""
	if i := strings.Index(msg, ": flag provided but not defined: "); i >= 0 {
		prefix, msg = msg[:i+2], msg[i+2:] // "attest check: "
	}
	if name, ok := strings.CutPrefix(msg, "flag provided but not defined: "); ok {
		name = strings.TrimLeft(name, "-")
		msg = fmt.Sprintf("unknown flag %s", dashed(name))
		var names []string
		for _, f := range flags {
			names = append(names, f.Names()...)
		}
		names = append(names, "help")
		if s := okf.Closest(name, names); s != "" && len([]rune(name)) > 1 {
			msg += fmt.Sprintf(" (did you mean %s?)", dashed(s))
		}
	}
	return &exitError{code: exitUsage, msg: prefix + msg, hint: fmt.Sprintf("run '%s --help' for usage", cmd)}
}

// dashed writes a flag name as typed: -f, --format.
func dashed(name string) string {
	if len([]rune(name)) == 1 {
		return "-" + name
	}
	return "--" + name
}

// commandArgs handles the first argument before urfave/cli sees it: `okf help CMD [SUB]` becomes
// `okf CMD [SUB] --help`, and an unknown command is a usage error with a "did you mean".
func commandArgs(app *cli.App, args []string) ([]string, error) {
	if len(args) < 2 || strings.HasPrefix(args[1], "-") {
		return args, nil
	}
	var names []string
	for _, c := range app.Commands {
		names = append(names, c.Names()...)
	}
	if args[1] == "help" || args[1] == "h" {
		if len(args) == 2 {
			return []string{args[0], "--help"}, nil
		}
		if !slices.Contains(names, args[2]) {
			return nil, unknownCommand(args[2], names)
		}
		out := append([]string{args[0]}, args[2:]...)
		return append(out, "--help"), nil
	}
	if !slices.Contains(names, args[1]) {
		return nil, unknownCommand(args[1], names)
	}
	return args, nil
}

func unknownCommand(name string, names []string) error {
	msg := fmt.Sprintf("unknown command %q", name)
	if s := okf.Closest(name, names); s != "" {
		msg += fmt.Sprintf(" (did you mean %q?)", s)
	}
	return &exitError{code: exitUsage, msg: msg, hint: "run 'okf --help' for the commands"}
}
