package main

import (
	"errors"
	"fmt"
	"io"
	"runtime"
	"runtime/debug"
	"slices"
	"strings"

	"github.com/okf-tools/okf/attest"
	"github.com/okf-tools/okf/internal/escape"
	"github.com/okf-tools/okf/lint"
	"github.com/urfave/cli/v2"
)

// Exit codes, the same for every command.
const (
	exitOK       = 0 // clean
	exitFindings = 1 // findings at or above the failure threshold (or a failed check)
	exitUsage    = 2 // bad usage or configuration: unknown flag, bad value, a path in no bundle, a .okf.yaml with problems
	exitFatal    = 3 // fatal: the bundle root cannot be read, an output cannot be written
)

// exitError carries an exit code out of a command action; run turns it into the process status in
// one place, so urfave/cli never calls os.Exit (which would end a test mid-way).
type exitError struct {
	code int
	msg  string
	hint string // a second line, "run 'okf lint --help' for usage"
	// lines come first, each on a line of its own as written (a configuration's problems,
	// "file:line:col: message", for editors and CI to read).
	lines []string
}

func (e *exitError) Error() string { return e.msg }

// usageErr is a bad-usage failure (exit 2).
func usageErr(format string, a ...any) error {
	return &exitError{code: exitUsage, msg: fmt.Sprintf(format, a...)}
}

// fatalErr is a fatal failure (exit 3).
func fatalErr(format string, a ...any) error {
	return &exitError{code: exitFatal, msg: fmt.Sprintf(format, a...)}
}

// findings is the quiet exit 1: the command already printed what it found.
var findings = &exitError{code: exitFindings}

// env is what a command reads from its surroundings, injected for tests.
type env struct {
	stdin  io.Reader
	stdout io.Writer
	stderr io.Writer
	getenv func(string) string
}

// version, commit and date are set by release builds (-ldflags "-X main.version=…", see
// .goreleaser.yaml); otherwise they come from the build info that `go install` (the module
// version) and `go build` in a git checkout (vcs.revision, vcs.time) record.
var version, commit, date = "", "", ""

func okfVersion() string {
	if version != "" {
		return version
	}
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
		return bi.Main.Version
	}
	return "devel"
}

// buildCommit returns the commit and commit date okf was built from, "" when unknown; a build
// from a checkout with uncommitted changes says so.
func buildCommit() (rev, when string) {
	if commit != "" {
		return commit, date
	}
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return "", ""
	}
	dirty := false
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.time":
			when = s.Value
		case "vcs.modified":
			dirty = s.Value == "true"
		}
	}
	if rev != "" && dirty {
		rev += " (modified)"
	}
	return rev, when
}

// specRefs says what the § and D numbers of okf's help and messages are, and where to read them.
const specRefs = "§ numbers (§11) are sections of the OKF v0.2 spec:\n" +
	"  https://github.com/GoogleCloudPlatform/knowledge-catalog/blob/main/okf/SPEC.md\n" +
	"D numbers (D11) are okf's readings of it where it is silent:\n" +
	"  https://github.com/okf-tools/okf/blob/main/docs/decisions.md"

func newApp(e *env) *cli.App {
	app := &cli.App{
		Name:      "okf",
		Usage:     "check, report on and generate Open Knowledge Format (OKF) v0.2 bundles",
		UsageText: "okf COMMAND [options] [PATH]\n\nStart with:  okf lint path/to/bundle",
		Description: "An OKF bundle is a folder of Markdown files with YAML frontmatter. okf lints it for\n" +
			"conformance (§11) and hygiene, reports trust and staleness, runs attested computations'\n" +
			"attesters, and generates concepts from a blog. Run 'okf COMMAND --help' for a command.\n\n" +
			"Exit codes: 0 clean, 1 findings (or a failed check), 2 bad usage or configuration (a path in no\n" +
			"bundle, a .okf.yaml with problems), 3 fatal (unreadable bundle).\n\n" +
			specRefs,
		// --version (and -v) prints what `okf version` prints: one version string (urfave/cli's own
		// flag would print "okf version devel", a second form).
		HideVersion: true,
		Flags:       []cli.Flag{&cli.BoolFlag{Name: "version", Aliases: []string{"v"}, Usage: "print the version (as okf version)"}},
		Action: func(c *cli.Context) error {
			if c.Bool("version") {
				printVersion(e.stdout, false)
				return nil
			}
			return cli.ShowAppHelp(c)
		},
		Reader:          e.stdin,
		Writer:          e.stdout,
		ErrWriter:       e.stderr,
		HideHelpCommand: true,
		ExitErrHandler:  func(*cli.Context, error) {},
		// Commands, one constructor per file.
		Commands: []*cli.Command{
			lintCommand(e),
			trustCommand(e),
			attestCommand(e),
			genCommand(e),
			indexCommand(e),
			migrateCommand(e),
			schemaCommand(e),
			serveCommand(e),
			lspCommand(e),
			skillCommand(e),
			budgetCommand(e),
			versionCommand(e),
			completionCommand(e),
		},
		EnableBashCompletion: true,
	}
	finishCommands(app)
	return app
}

// run is main without os.Exit: it returns the exit code, so tests call it directly.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer, getenv func(string) string) int {
	// Every command checks .okf.yaml whole, the rules it names included: okf learns their names here.
	lint.RegisterRuleNames()
	e := &env{stdin: stdin, stdout: stdout, stderr: stderr, getenv: getenv}
	app := newApp(e)
	args, err := commandArgs(app, args)
	if err == nil {
		err = app.Run(flagsFirst(app, args))
	}
	if err == nil {
		return exitOK
	}
	// Messages echo paths, arguments and bundle values: escaped, so none can start a line of its own
	// or send a terminal control sequence.
	var ee *exitError
	if errors.As(err, &ee) {
		for _, l := range ee.lines {
			fmt.Fprintf(stderr, "%s\n", escape.LineStart(l))
		}
		if ee.msg != "" {
			fmt.Fprintf(stderr, "okf: %s\n", escape.Control(ee.msg))
		}
		if ee.hint != "" {
			fmt.Fprintf(stderr, "%s\n", escape.Control(ee.hint))
		}
		return ee.code
	}
	// Anything urfave/cli reports itself (unknown command, flag parse errors) is bad usage.
	fmt.Fprintf(stderr, "okf: %s\n", escape.Control(err.Error()))
	return exitUsage
}

func versionCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:  "version",
		Usage: "print okf's version and the OKF spec version it implements",
		Flags: []cli.Flag{&cli.BoolFlag{Name: "sandbox", Usage: "also print what confines external attesters on this machine (okf attest check says it too, where a bundle has such attesters)"}},
		Action: func(c *cli.Context) error {
			printVersion(e.stdout, c.Bool("sandbox"))
			return nil
		},
	}
}

// printVersion writes what both `okf version` and `okf --version` print: okf's version and the spec
// it implements on the first line, then the build's commit and toolchain; with sandbox, the
// isolation this machine gives external attesters. That is asked for, not printed always: probing
// it starts okf again (attest.MachineIsolation), which doubled the cost of `okf version`.
func printVersion(w io.Writer, sandbox bool) {
	fmt.Fprintf(w, "okf %s (OKF spec 0.2)\n", okfVersion())
	if rev, when := buildCommit(); rev != "" {
		fmt.Fprintf(w, "commit: %s\n", rev)
		if when != "" {
			fmt.Fprintf(w, "date: %s\n", when)
		}
	}
	fmt.Fprintf(w, "go: %s %s/%s\n", runtime.Version(), runtime.GOOS, runtime.GOARCH)
	if sandbox {
		fmt.Fprintf(w, "sandbox: %s\n", attest.MachineIsolation())
	}
}

// flagsFirst moves a command's flags (with their values) ahead of its other arguments, so that
// "okf lint bundle --format json" works like "okf lint --format json bundle": urfave/cli v2 stops
// reading flags at the first argument that is not one. Commands with subcommands or their own flag
// parsing (attest) are left alone, and so is everything after "--".
func flagsFirst(app *cli.App, args []string) []string {
	if len(args) < 3 {
		return args
	}
	var cmd *cli.Command
	for _, c := range app.Commands {
		if c.Name == args[1] || slices.Contains(c.Aliases, args[1]) {
			cmd = c
		}
	}
	if cmd == nil || len(cmd.Subcommands) > 0 || cmd.SkipFlagParsing {
		return args
	}
	takesValue := map[string]bool{}
	for _, f := range cmd.Flags {
		v := true
		switch ff := f.(type) {
		case *cli.BoolFlag:
			v = false
		case *cli.GenericFlag:
			if b, ok := ff.Value.(interface{ IsBoolFlag() bool }); ok && b.IsBoolFlag() {
				v = false
			}
		}
		for _, n := range f.Names() {
			takesValue[n] = v
		}
	}
	flags := []string{}
	var rest []string
	for i := 2; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			rest = append(rest, args[i:]...)
			break
		}
		if len(a) < 2 || a[0] != '-' {
			rest = append(rest, a)
			continue
		}
		flags = append(flags, a)
		name := strings.TrimLeft(a, "-")
		if strings.Contains(name, "=") {
			continue
		}
		if takesValue[name] && i+1 < len(args) {
			i++
			flags = append(flags, args[i])
		}
	}
	out := append([]string{args[0], args[1]}, flags...)
	return append(out, rest...)
}
