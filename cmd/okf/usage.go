package main

import (
	"fmt"
	"slices"
	"strings"

	"github.com/okf-tools/okf/internal/suggest"
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
			citesSpec(c)
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

// citesSpec adds specRefs to the help of a command that cites a § or D number (in its usage, its
// description or a flag's usage), so each such help says what they are and where to read them.
func citesSpec(c *cli.Command) {
	cites := func(text string) bool { return strings.Contains(text, "§") || helpCitesDecision(text) }
	found := cites(c.Usage) || cites(c.Description)
	for _, f := range c.Flags {
		if df, ok := f.(cli.DocGenerationFlag); ok && !found {
			found = cites(df.GetUsage())
		}
	}
	if !found {
		return
	}
	if c.Description != "" {
		c.Description += "\n\n"
	}
	c.Description += specRefs
}

// helpCitesDecision reports whether a help text holds a decision number as a word: D and one or
// two digits (D13), what the regular expression \bD\d{1,2}\b finds. Every run checks every
// command's help this way, so it is a scan, not a regular expression (TestCitesDecision compares
// them).
func helpCitesDecision(text string) bool {
	for i := 0; i+1 < len(text); i++ {
		if text[i] != 'D' || !isDigit(text[i+1]) || i > 0 && isWordByte(text[i-1]) {
			continue
		}
		j := i + 1
		for j < len(text) && j < i+3 && isDigit(text[j]) {
			j++
		}
		if j == len(text) || !isWordByte(text[j]) {
			return true
		}
	}
	return false
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// isWordByte is a byte of \w: an ASCII letter, digit or '_'.
func isWordByte(c byte) bool {
	return isDigit(c) || c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
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
		if s := suggest.Closest(name, names); s != "" && len([]rune(name)) > 1 {
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

// commandArgs handles the command words before urfave/cli sees them: `okf help CMD [SUB]` and
// `okf CMD help [SUB]` become `okf CMD [SUB] --help`, and an unknown command or subcommand is a
// usage error with a "did you mean" (never urfave/cli's "No help topic").
func commandArgs(app *cli.App, args []string) ([]string, error) {
	if len(args) < 2 || strings.HasPrefix(args[1], "-") {
		return args, nil
	}
	if args[1] == "help" || args[1] == "h" {
		if len(args) == 2 {
			return []string{args[0], "--help"}, nil
		}
		if err := checkCommandWords(app.Commands, "", args[2:]); err != nil {
			return nil, err
		}
		out := append([]string{args[0]}, args[2:]...)
		return append(out, "--help"), nil
	}
	if err := checkCommandWords(app.Commands, "", args[1:]); err != nil {
		return nil, err
	}
	// okf CMD help [SUB]: the help of CMD or of its subcommand SUB.
	if len(args) >= 3 && (args[2] == "help" || args[2] == "h") {
		if c := findCommand(app.Commands, args[1]); c != nil && len(c.Subcommands) > 0 {
			out := append([]string{args[0], args[1]}, args[3:]...)
			if err := checkCommandWords(c.Subcommands, args[1]+" ", args[3:]); err != nil {
				return nil, err
			}
			return append(out, "--help"), nil
		}
	}
	return args, nil
}

// checkCommandWords checks the command words at the head of words: the first names one of cmds,
// and, when that command has subcommands, the next word (unless a flag, or help) names one of them.
func checkCommandWords(cmds []*cli.Command, path string, words []string) error {
	if len(words) == 0 || strings.HasPrefix(words[0], "-") {
		return nil
	}
	var names []string
	for _, c := range cmds {
		names = append(names, c.Names()...)
	}
	c := findCommand(cmds, words[0])
	if c == nil {
		return unknownCommand(path, words[0], names)
	}
	if len(c.Subcommands) == 0 || len(words) < 2 || words[1] == "help" || words[1] == "h" {
		return nil
	}
	return checkCommandWords(c.Subcommands, path+c.Name+" ", words[1:])
}

func findCommand(cmds []*cli.Command, name string) *cli.Command {
	for _, c := range cmds {
		if slices.Contains(c.Names(), name) {
			return c
		}
	}
	return nil
}

// unknownCommand is the usage error for a command word: path is the command above it ("attest ",
// or "" at the top).
func unknownCommand(path, name string, names []string) error {
	msg := fmt.Sprintf("unknown command %q", path+name)
	if s := suggest.Closest(name, names); s != "" {
		msg += fmt.Sprintf(" (did you mean %q?)", s)
	}
	return &exitError{code: exitUsage, msg: msg, hint: fmt.Sprintf("run 'okf %s--help' for the commands", path)}
}
