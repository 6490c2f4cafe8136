package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/okf-tools/okf/attest"
	"github.com/okf-tools/okf/internal/escape"
	"github.com/okf-tools/okf/internal/suggest"
	"github.com/okf-tools/okf/lint"
	"github.com/okf-tools/okf/okf"
	"github.com/urfave/cli/v2"
)

// multiValue is a repeatable flag that keeps every value whole (urfave/cli's slice flags split on
// commas, which would break `--param tags=a,b`).
type multiValue struct{ vals []string }

func (m *multiValue) Set(s string) error { m.vals = append(m.vals, s); return nil }
func (m *multiValue) String() string {
	if m == nil {
		return ""
	}
	return strings.Join(m.vals, " ")
}

// attestCommand is `okf attest`: list, check, verify and run Attested Computations (§10, D17, D18).
func attestCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:  "attest",
		Usage: "list, check, verify and run Attested Computations (§10)",
		Description: "Attested Computations carry a sanctioned computation, the receipt a run returns and an\n" +
			"attester that checks a receipt. 'list' and 'check' read contracts; 'verify' runs the attester\n" +
			"over a receipt; 'run' executes a sqlite or postgres computation, then attests its receipt.\n" +
			"Only a pass counts: verify and run exit 0 on pass, 1 on fail, error or unavailable.",
		Subcommands: []*cli.Command{
			attestListCommand(e),
			attestCheckCommand(e),
			attestVerifyCommand(e),
			attestRunCommand(e),
		},
	}
}

// reportFlags are -f, -o and --color of the attest subcommands that print a report of their own
// (list, verify, run), named and behaving as okf lint's and okf trust's.
func reportFlags() []cli.Flag {
	return []cli.Flag{
		&cli.StringFlag{Name: "format", Aliases: []string{"f"}, Value: "text", Usage: "output `FORMAT`: text or json (see docs/attest.md for the JSON)"},
		outputFlag(),
		colorFlag(),
	}
}

func outputFlag() cli.Flag {
	return &cli.StringFlag{Name: "output", Aliases: []string{"o"}, Usage: "write the report to `FILE` (replaced atomically) instead of standard output"}
}

// attestReport writes an attest subcommand's report: JSON when -f json, else the text print makes
// (coloured as --color says), to -o FILE or standard output.
func attestReport(c *cli.Context, e *env, v any, print func(w io.Writer, p painter)) error {
	out := aliased(c, "output", "o", "")
	colour, err := useColor(c, e, out != "") // checked with every format, as okf lint checks it
	if err != nil {
		return err
	}
	if aliased(c, "format", "f", "text") == "json" {
		return writeReport(e, out, func(w io.Writer) error { return writeJSON(w, v) }, "cannot write the report")
	}
	return writeReport(e, out, func(w io.Writer) error { print(w, painter(colour)); return nil }, "cannot write the report")
}

// painter colours a word of a text report when --color allows it.
type painter bool

const (
	ansiReset  = "\x1b[0m"
	ansiBold   = "\x1b[1m"
	ansiRed    = "\x1b[1;31m"
	ansiGreen  = "\x1b[1;32m"
	ansiYellow = "\x1b[1;33m"
)

func (p painter) paint(code, s string) string {
	if !p || s == "" {
		return s
	}
	return code + s + ansiReset
}

// outcome colours a verdict: pass green, fail red, error and unavailable yellow.
func (p painter) outcome(o attest.Outcome) string {
	switch o {
	case attest.Pass:
		return p.paint(ansiGreen, string(o))
	case attest.Fail:
		return p.paint(ansiRed, string(o))
	}
	return p.paint(ansiYellow, escape.Control(string(o)))
}

func allowOutsideFlag() cli.Flag {
	return &cli.BoolFlag{Name: "allow-outside", Usage: "let an attester whose path leaves the bundle (by .. or a symbolic link) run"}
}

// sandboxFlags are the flags of the commands that run attesters.
func sandboxFlags() []cli.Flag {
	return []cli.Flag{
		&cli.DurationFlag{Name: "timeout", Value: attest.DefaultTimeout, Usage: "kill an external attester's process group after this `DURATION`"},
		&cli.GenericFlag{Name: "env", Value: &multiValue{}, Usage: "pass the variable `NAME` through to external attesters (repeatable)"},
		allowOutsideFlag(),
		&cli.BoolFlag{Name: "allow-exec", Usage: "run external attesters (executables, Python: code from the bundle) in the sandbox; also OKF_ALLOW_EXEC=1. Without it they are unavailable; builtins always run"},
		&cli.BoolFlag{Name: "unsafe-no-sandbox", Usage: "where this machine offers no sandbox (see okf version --sandbox), run external attesters unconfined with okf's own rights"},
	}
}

func bundleFlag() cli.Flag {
	return &cli.StringFlag{Name: "bundle", Aliases: []string{"b"}, Value: ".", Usage: "a folder of the bundle `DIR`, its root found as okf lint finds it"}
}

func paramFlag() cli.Flag {
	return &cli.GenericFlag{Name: "param", Value: &multiValue{}, Usage: "a parameter value as `name=value` (repeatable)"}
}

func claimedFlag() cli.Flag {
	return &cli.StringFlag{Name: "claimed", Usage: "the `VALUE` about to be displayed; fidelity compares it with the receipt's first result cell"}
}

// interspersed parses flags that may come before or after the positional arguments (urfave/cli v2
// stops at the first positional one), so `okf attest verify CONCEPT --receipt r.json` works.
func interspersed(c *cli.Context, flags []cli.Flag) (*cli.Context, []string, error) {
	set := flag.NewFlagSet(c.Command.Name, flag.ContinueOnError)
	set.SetOutput(io.Discard)
	for _, f := range flags {
		if err := f.Apply(set); err != nil {
			return nil, nil, err
		}
	}
	rest := c.Args().Slice()
	var pos []string
	for {
		if err := set.Parse(rest); err != nil {
			return nil, nil, err
		}
		if n := len(rest) - len(set.Args()); n > 0 && rest[n-1] == "--" {
			pos = append(pos, set.Args()...) // after "--" everything is positional
			break
		}
		rest = set.Args()
		if len(rest) == 0 {
			break
		}
		pos = append(pos, rest[0])
		rest = rest[1:]
	}
	return cli.NewContext(c.App, set, c), pos, nil
}

// wantsHelp reports whether -h or --help is among args given to a command that parses its own flags.
func wantsHelp(args []string) bool {
	for _, a := range args {
		if a == "--" {
			return false
		}
		if a == "-h" || a == "--help" || a == "-help" {
			return true
		}
	}
	return false
}

// subcommand builds an attest subcommand that parses its own flags (see interspersed).
func subcommand(name, usage, argsUsage, desc string, flags []cli.Flag, action func(c *cli.Context, args []string) error) *cli.Command {
	flags = append(flags[:len(flags):len(flags)], maxFileSizeFlag())
	cmd := &cli.Command{
		Name:            name,
		Usage:           usage,
		ArgsUsage:       argsUsage,
		Description:     desc,
		Flags:           flags,
		SkipFlagParsing: true,
	}
	cmd.Action = func(c *cli.Context) error {
		if wantsHelp(c.Args().Slice()) {
			return cli.ShowSubcommandHelp(c)
		}
		c2, args, err := interspersed(c, flags)
		if err != nil {
			return flagUsageErr("okf attest "+name, flags, fmt.Errorf("attest %s: %w", name, err))
		}
		switch f := aliased(c2, "format", "f", "text"); {
		case name == "check", f == "", f == "text", f == "json": // check takes okf lint's formats
		default:
			return usageErr("attest %s: --format: %v", name, suggest.UnknownValue("format", f, []string{"text", "json"}))
		}
		// --color too is checked before anything runs (attest run would otherwise query first).
		if err := checkColor(c2); err != nil {
			return err
		}
		return action(c2, args)
	}
	return cmd
}

// loadAttest loads the bundle of path as every okf attest subcommand reads it (attest.Load), with
// the size limit of --max-file-size or .okf.yaml: a path in no bundle or a configuration with
// problems is bad usage (exit 2), an unreadable bundle fatal (exit 3).
func loadAttest(c *cli.Context, path string) (*attest.Loaded, error) {
	limit, err := flagMaxFileSize(c)
	if err != nil {
		return nil, err
	}
	l, err := attest.Load(c.Context, attest.BundleRequest{Path: path, MaxFileSize: limit, AllowOutside: c.Bool("allow-outside")})
	var le *attest.LoadError
	switch {
	case errors.As(err, &le):
		return nil, fatalErr("%v", le.Err)
	case err != nil:
		return nil, openErr(err, "")
	}
	return l, nil
}

// writeJSON writes v as indented JSON as okf writes all JSON (escape.EncodeJSONLog): no `##[` a CI
// runner would read as a command, no control, bidi or separator character raw, even inside the
// raw JSON an attester or a receipt file supplied.
func writeJSON(w io.Writer, v any) error {
	return escape.EncodeJSONLog(w, v, "  ", false)
}

func attestListCommand(e *env) *cli.Command {
	flags := append(reportFlags(), allowOutsideFlag())
	return subcommand("list", "list every Attested Computation with its contract and who links to it", "[PATH]",
		"For each Attested Computation: runtime, parameters, where the computation is (inline block or\n"+
			"file), the fields executor.receipt requires, the attester and its kind, and the concepts linking to it.\n"+
			"The bundle is found from PATH as okf lint finds it; a folder below the root, or one file, lists the computations in it.",
		flags, func(c *cli.Context, args []string) error {
			if len(args) > 1 {
				return usageErr("attest list: expected at most one bundle path, got %d arguments", len(args))
			}
			dir := "."
			if len(args) == 1 {
				dir = args[0]
			}
			// The bundle is found as okf lint finds it: a folder below the root lists the
			// computations under it, read as part of the whole bundle (links resolve from the root).
			l, err := loadAttest(c, dir)
			if err != nil {
				return err
			}
			defer l.Close()
			dir, scope := l.Target.Root, l.Target.Scope()
			comps := l.InScope()
			out := map[string]any{"computations": nonNil(comps)}
			if scope != "" {
				out["scope"] = scope
			}
			show := newPathDisplay(dir)
			return attestReport(c, e, out, func(w io.Writer, p painter) {
				for i, comp := range comps {
					if i > 0 {
						fmt.Fprintln(w)
					}
					printComputation(w, comp, show, p)
				}
				under := ""
				if scope != "" {
					under = " under " + escape.Control(scope) + " (the list is limited to it)"
				}
				fmt.Fprintf(w, "%s%s\n", countOf(len(comps), "attested computation"), under)
			})
		})
}

func nonNil(c []*attest.Computation) []*attest.Computation {
	if c == nil {
		return []*attest.Computation{}
	}
	return c
}

// printComputation writes a computation's contract. Every value comes from the bundle and is
// escaped (escape.Control; the ID, which starts a line, with escape.LineStart). show turns a
// bundle path into the path okf lint prints (from the working directory), so an inline block's
// position opens in an editor as a finding's does.
func printComputation(w io.Writer, comp *attest.Computation, show func(string) string, p painter) {
	esc := escape.Control
	title := ""
	if comp.Title != "" {
		title = "  (" + esc(comp.Title) + ")"
	}
	fmt.Fprintf(w, "%s%s\n", p.paint(ansiBold, escape.LineStart(comp.ID)), title)
	rt := comp.Runtime
	if rt == "" {
		rt = "(none)"
	}
	fmt.Fprintf(w, "  runtime:      %s\n", esc(rt))
	var ps []string
	for _, p := range comp.Params {
		req := "optional"
		if p.Required {
			req = "required"
		}
		ps = append(ps, strings.TrimSpace(fmt.Sprintf("%s %s %s", p.Name, p.Type, req)))
	}
	fmt.Fprintf(w, "  parameters:   %s\n", esc(orNone(strings.Join(ps, "; "))))
	switch comp.Source.Kind {
	case "inline":
		pos := comp.Source.Pos
		pos.Path = show(pos.Path)
		fmt.Fprintf(w, "  computation:  inline block at %s\n", esc(pos.String()))
	case "file":
		fmt.Fprintf(w, "  computation:  file %s\n", esc(orNone(comp.Source.Path)))
	default:
		fmt.Fprintf(w, "  computation:  (none or ambiguous; see okf attest check)\n")
	}
	fmt.Fprintf(w, "  receipt:      %s\n", esc(orNone(strings.Join(comp.Receipt, ", "))))
	a := comp.Attester
	switch {
	case a.State == "ok":
		fmt.Fprintf(w, "  attester:     %s (%s)\n", esc(a.Resource), esc(a.Kind))
	case a.Resource == "":
		fmt.Fprintf(w, "  attester:     (none)\n")
	default:
		fmt.Fprintf(w, "  attester:     %s (%s: %s)\n", esc(a.Resource), p.paint(ansiYellow, esc(a.State)), esc(a.Problem))
	}
	fmt.Fprintf(w, "  linked from:  %s\n", esc(orNone(strings.Join(comp.LinkedFrom, ", "))))
}

func orNone(s string) string {
	if s == "" {
		return "(none)"
	}
	return s
}

func attestCheckCommand(e *env) *cli.Command {
	flags := []cli.Flag{
		&cli.StringFlag{Name: "format", Aliases: []string{"f"}, Value: "text", Usage: "output `FORMAT`, as okf lint's: " + strings.Join(lint.Formats, ", ")},
		outputFlag(),
		&cli.StringFlag{Name: "fail-on", Value: "error", Usage: "exit 1 when a finding is at least this `SEVERITY`: error, warning or info (default error, as okf lint; CI that gates contracts uses warning)"},
		colorFlag(),
		allowOutsideFlag(),
	}
	return subcommand("check", "check every Attested Computation's contract statically (D17); no receipts needed", "[PATH]",
		"Static checks (D17): runtime present, exactly one computation, parameters with name, type and\n"+
			"required, placeholders declared and declarations used, executor.receipt listed, and an attester\n"+
			"that can run (builtin:NAME, an executable or a .py file inside the bundle). Checks okf lint also\n"+
			"makes are its findings (OKF7xx), word for word. All findings are warnings or info (D1). The output formats, -o\n"+
			"and --fail-on (default error) are okf lint's.",
		flags, func(c *cli.Context, args []string) error {
			if len(args) > 1 {
				return usageErr("attest check: expected at most one bundle path, got %d arguments", len(args))
			}
			printer, err := lint.NewPrinter(aliased(c, "format", "f", "text"))
			if err != nil {
				return usageErr("attest check: --format: %v", err)
			}
			failOn, err := okf.ParseSeverity(c.String("fail-on"))
			if err != nil {
				return usageErr("attest check: --fail-on: %v", err)
			}
			// The bundle is found as okf lint finds it: a folder below the root or a file is checked as
			// part of its bundle (paths resolve from the real root), and only its findings are reported.
			named := "."
			if len(args) == 1 {
				named = args[0]
			}
			l, err := loadAttest(c, named)
			if err != nil {
				return err
			}
			defer l.Close()
			t, dir, b := l.Target, l.Target.Root, l.Bundle
			comps := l.Computations()
			ds := attestCheckFindings(b, comps)
			if keep := t.Filter(); keep != nil {
				kept := ds[:0]
				for _, d := range ds {
					if keep(d.Pos.Path) {
						kept = append(kept, d)
					}
				}
				ds = kept
			}
			// lint's printers show paths from the working directory, so editors and CI can open them.
			report := &lint.Report{Diagnostics: ds, DisplayPath: newPathDisplay(dir),
				ReadFile: b.ReadFile, Rules: attestRules(), Version: okfVersion()}
			colour, err := useColor(c, e, aliased(c, "output", "o", "") != "")
			if err != nil {
				return err
			}
			report.Color = colour && aliased(c, "format", "f", "text") == "pretty"
			print := func(w io.Writer) error { return printer.Print(w, report) }
			if err := writeReport(e, aliased(c, "output", "o", ""), print, "cannot write the report"); err != nil {
				return err
			}
			// Where external attesters would run, a note on stderr (stdout stays the findings) says
			// what confines them on this machine.
			for _, comp := range comps {
				if k := comp.Attester.Kind; k == "executable" || k == "python" {
					fmt.Fprintf(e.stderr, "okf: sandbox for external attesters: %s\n", attest.MachineIsolation())
					break
				}
			}
			for _, d := range ds {
				if d.Severity <= failOn {
					return findings
				}
			}
			return nil
		})
}

// aliased reads a string flag given by its name or its alias: the flag set interspersed builds
// keeps them apart (and IsSet counts either), so the one that differs from the other was given.
func aliased(c *cli.Context, name, alias, def string) string {
	if v := c.String(name); v != def {
		return v
	}
	return c.String(alias)
}

// attestCheckFindings are okf attest check's findings: okf lint's own findings for the contract
// checks both commands make (lint's Attested Computation rules, so a finding reads the same from both,
// at the same position, and inline okf-lint-disable comments apply), and attest's checks of its own
// (ATT codes: duplicate parameters, parameter types, attesters that cannot run).
func attestCheckFindings(b *okf.Bundle, comps []*attest.Computation) []okf.Diagnostic {
	var ds []okf.Diagnostic
	for _, d := range attest.Check(b, comps) {
		if strings.HasPrefix(d.Code, "ATT") {
			ds = append(ds, d)
		}
	}
	ds = append(ds, lint.Run(b, lint.Options{Rules: contractRules()})...)
	// A computation or executor path that leaves the bundle is lint's path-escapes (OKF603), a rule
	// over every path and link: only its findings on those two contract fields are attest's concern
	// (an attester that leaves the bundle is ATT012).
	fields := map[okf.Position]bool{}
	for _, c := range comps {
		fm := c.Concept.Frontmatter
		if fm.Computation().Present() {
			fields[fm.Computation().Pos] = true
		}
		if fm.Executor() != nil && fm.Executor().Resource.Present() {
			fields[fm.Executor().Resource.Pos] = true
		}
	}
	for _, d := range lint.Run(b, lint.Options{Rules: []*lint.Rule{lint.PathEscapes}}) {
		if fields[d.Pos] {
			ds = append(ds, d)
		}
	}
	return okf.SortDiagnostics(ds)
}

// contractRules are okf lint's rules on an Attested Computation's contract (§10.2, §10.3, D17):
// OKF701–OKF709 and OKF711. OKF710 is about concepts of other types, so okf attest check leaves it out.
func contractRules() []*lint.Rule {
	var rules []*lint.Rule
	for _, r := range lint.All() {
		if strings.HasPrefix(r.Code, "OKF70") || r.Code == "OKF711" {
			rules = append(rules, r)
		}
	}
	return rules
}

// attestRules are the rules a SARIF report of okf attest check describes: okf lint's (whose codes
// the shared checks use) and attest's own ATT codes.
func attestRules() []*lint.Rule {
	rules := append([]*lint.Rule(nil), lint.All()...)
	for _, c := range attest.OwnCodes {
		rules = append(rules, &lint.Rule{Code: c.Code, Name: c.Name, Severity: c.Severity, Spec: "§10.2", Decision: "D17",
			Title: c.Title, Doc: c.Title + ". Reported by okf attest check (see docs/attest.md)."})
	}
	return rules
}

// findComputation loads the bundle and finds the named computation; a wrong name is bad usage.
func findComputation(c *cli.Context, args []string, cmd string) (*okf.Bundle, *attest.Computation, error) {
	if len(args) != 1 {
		return nil, nil, usageErr("attest %s: expected one CONCEPT (an Attested Computation's ID or path), got %d arguments", cmd, len(args))
	}
	// --bundle (default: the working directory) is placed in its bundle as okf lint finds it, so
	// from a folder below the root the real bundle is read; CONCEPT is an ID from the root, or from
	// that folder.
	l, err := loadAttest(c, aliased(c, "bundle", "b", "."))
	if err != nil {
		return nil, nil, err
	}
	comp, err := l.Find(args[0])
	var nf *attest.NotFoundError
	if errors.As(err, &nf) {
		return nil, nil, usageErr("attest %s: %v", cmd, nf)
	}
	b := l.Bundle
	return b, comp, nil
}

func sandboxOptions(c *cli.Context, e *env) (attest.Options, error) {
	opts := attest.Options{
		Timeout:         c.Duration("timeout"),
		Getenv:          e.getenv,
		AllowOutside:    c.Bool("allow-outside"),
		AllowExec:       c.Bool("allow-exec") || e.getenv("OKF_ALLOW_EXEC") == "1",
		UnsafeNoSandbox: c.Bool("unsafe-no-sandbox"),
	}
	if opts.Timeout <= 0 {
		return opts, usageErr("--timeout %s: expected a positive duration such as 30s", opts.Timeout)
	}
	if m, ok := c.Generic("env").(*multiValue); ok {
		for _, n := range m.vals {
			if n == "" || strings.ContainsAny(n, "= ") {
				return opts, usageErr("--env %q: expected a variable NAME", n)
			}
			opts.Env = append(opts.Env, n)
		}
	}
	return opts, nil
}

func paramArgs(c *cli.Context) (map[string]string, error) {
	var vals []string
	if m, ok := c.Generic("param").(*multiValue); ok {
		vals = m.vals
	}
	p, err := attest.ParseParamArgs(vals)
	if err != nil {
		return nil, usageErr("%v", err)
	}
	return p, nil
}

func attestVerifyCommand(e *env) *cli.Command {
	flags := append([]cli.Flag{
		bundleFlag(),
		&cli.StringFlag{Name: "receipt", Usage: "the receipt `FILE` (JSON) a run returned"},
		claimedFlag(),
		paramFlag(),
	}, append(reportFlags(), sandboxFlags()...)...)
	return subcommand("verify", "run a computation's attester over a receipt and print the verdict", "CONCEPT --receipt FILE.json",
		"Checks the receipt carries every field executor.receipt lists, then runs the attester (D18) and\n"+
			"prints the result: pass, fail, error or unavailable. Exit 0 only on pass.",
		flags, func(c *cli.Context, args []string) error {
			b, comp, err := findComputation(c, args, "verify")
			if err != nil {
				return err
			}
			opts, err := sandboxOptions(c, e)
			if err != nil {
				return err
			}
			if c.String("receipt") == "" {
				return usageErr("attest verify: --receipt FILE is required")
			}
			// Inside the bundle the receipt is read confined (a link leading outside is refused);
			// anywhere, at most the size limit.
			data, err := b.FileSystem().ReadPath(c.String("receipt"))
			if err != nil {
				return fatalErr("cannot read receipt: %v", err)
			}
			var probe map[string]json.RawMessage
			if err := json.Unmarshal(data, &probe); err != nil {
				return usageErr("receipt %q is not a JSON object: %v", c.String("receipt"), err)
			}
			supplied, err := paramArgs(c)
			if err != nil {
				return err
			}
			values, err := attest.Bind(comp.Params, supplied, false)
			if err != nil {
				return usageErr("attest verify %s: %v", comp.ID, err)
			}
			text, textErr := comp.ComputationText()
			var claimed json.RawMessage
			if c.IsSet("claimed") {
				claimed = attest.ClaimedJSON(c.String("claimed"))
			}
			req := attest.NewRequest(comp, text, values, data, claimed)
			var res *attest.Result
			if textErr != nil && comp.Attester.State == "ok" {
				res = &attest.Result{Concept: comp.ID, Attester: comp.Attester.Resource, Kind: comp.Attester.Kind,
					Outcome: attest.Error, Reason: ptr("cannot load the sanctioned computation: " + textErr.Error()), Details: json.RawMessage("{}")}
			} else {
				res = attest.Attest(b, comp, req, opts)
			}
			if err := attestReport(c, e, res, func(w io.Writer, p painter) { printResult(w, res, p) }); err != nil {
				return err
			}
			if !res.Passed() {
				return findings
			}
			return nil
		})
}

func ptr(s string) *string { return &s }

// printResult writes a verdict. The concept, the attester's reason, details and stderr come from
// the bundle or the attester: escaped, so none can start a line or carry a control sequence (each
// stderr line is shown on a line of its own, and cannot begin a workflow command).
func printResult(w io.Writer, r *attest.Result, p painter) {
	esc := escape.Control
	fmt.Fprintf(w, "%s: %s\n", escape.LineStart(r.Concept), p.outcome(r.Outcome))
	kind := r.Kind
	if kind == "" {
		kind = "not runnable"
	}
	fmt.Fprintf(w, "  attester: %s (%s)\n", esc(orNone(r.Attester)), esc(kind))
	reason := "(none)"
	if r.Reason != nil {
		reason = *r.Reason
	}
	fmt.Fprintf(w, "  reason:   %s\n", esc(reason))
	fmt.Fprintf(w, "  details:  %s\n", oneLineJSON(r.Details))
	if len(r.Capped) > 0 {
		fmt.Fprintf(w, "  capped:   %s (output cap %d bytes)\n", esc(strings.Join(r.Capped, ", ")), attest.DefaultOutputCap)
	}
	if r.StderrTail != "" {
		fmt.Fprintf(w, "  stderr:\n")
		for _, l := range strings.Split(r.StderrTail, "\n") {
			fmt.Fprintf(w, "    %s\n", escape.LineStart(l))
		}
	}
}

// oneLineJSON shows JSON from an attester on one line: compacted when it is valid, and escaped
// either way.
func oneLineJSON(b []byte) string {
	var buf bytes.Buffer
	if err := json.Compact(&buf, b); err == nil {
		b = buf.Bytes()
	}
	return escape.Control(string(b))
}

func attestRunCommand(e *env) *cli.Command {
	flags := append([]cli.Flag{
		bundleFlag(),
		paramFlag(),
		&cli.StringFlag{Name: "db", Usage: "the SQLite database `PATH` (runtime sqlite; opened read-only)"},
		&cli.StringFlag{Name: "dsn", Usage: "the PostgreSQL connection string `DSN` (runtime postgres; runs in a read-only transaction)"},
		&cli.DurationFlag{Name: "query-timeout", Value: attest.DefaultQueryTimeout, Usage: "stop the query after this `DURATION` (on PostgreSQL also the statement_timeout)"},
		&cli.StringFlag{Name: "receipt-out", Usage: "also write the receipt to `FILE`"},
		claimedFlag(),
		&cli.StringFlag{Name: "now", Usage: "the clock `TIME` stamped on the receipt (RFC 3339, or a date; also OKF_NOW)"},
	}, append(reportFlags(), sandboxFlags()...)...)
	return subcommand("run", "execute a sqlite or postgres computation, then attest its receipt", "CONCEPT --param name=value… (--db PATH | --dsn DSN)",
		"Binds the declared parameters as named parameters (never into the text), checking each value\n"+
			"against its declared type and required; runs the computation read-only; builds a receipt\n"+
			"(run_id, executed_sql with placeholders as written, result, error when the run failed); then\n"+
			"runs the attester over it. The claimed value defaults to the first result cell.\n"+
			"Exit 0 only when the run succeeded and the attestation passed.",
		flags, func(c *cli.Context, args []string) error {
			b, comp, err := findComputation(c, args, "run")
			if err != nil {
				return err
			}
			opts, err := sandboxOptions(c, e)
			if err != nil {
				return err
			}
			now, err := okf.ResolveNow(c.String("now"), e.getenv)
			if err != nil {
				return usageErr("--now: %v", err)
			}
			supplied, err := paramArgs(c)
			if err != nil {
				return err
			}
			text, values, err := attest.Prepare(comp, supplied)
			if err != nil {
				return usageErr("attest run %s: %v; no query was executed", comp.ID, err)
			}
			if strings.EqualFold(comp.Runtime, "sqlite") && c.String("db") == "" {
				return usageErr("attest run %s: runtime sqlite needs --db PATH (an existing SQLite database file)", comp.ID)
			}
			if !strings.EqualFold(comp.Runtime, "sqlite") && c.String("dsn") == "" {
				return usageErr("attest run %s: runtime %s needs --dsn (a PostgreSQL connection string)", comp.ID, comp.Runtime)
			}
			if c.Duration("query-timeout") <= 0 {
				return usageErr("--query-timeout %s: expected a positive duration such as 60s", c.Duration("query-timeout"))
			}
			// Before the query runs: neither the receipt nor the report may replace a bundle file.
			for _, out := range []string{c.String("receipt-out"), aliased(c, "output", "o", "")} {
				if err := notOverBundleFile(out); err != nil {
					return err
				}
			}
			rec, err := attest.Execute(context.Background(), comp, text, values, attest.RunOptions{
				DB: c.String("db"), DSN: c.String("dsn"), Now: now, Timeout: c.Duration("query-timeout"),
			})
			if err != nil {
				return fatalErr("attest run %s: %v", comp.ID, err)
			}
			recJSON, err := json.Marshal(rec)
			if err != nil {
				return fatalErr("cannot encode the receipt: %v", err)
			}
			// Escaped once, here: the file written, the attester's request and what is printed
			// hold the same bytes (the same JSON values as rec).
			recJSON = escape.JSONLog(recJSON)
			if out := c.String("receipt-out"); out != "" {
				if err := okf.WriteFileAtomic(out, indentJSON(recJSON), 0o644); err != nil {
					return fatalErr("--receipt-out: cannot write %q: %v", out, unwrapPathErr(err))
				}
			}
			var claimed json.RawMessage
			switch {
			case c.IsSet("claimed"):
				claimed = attest.ClaimedJSON(c.String("claimed"))
			case rec.Error == nil && len(rec.Result) > 0:
				claimed, _ = json.Marshal(rec.Result[0])
			}
			res := attest.Attest(b, comp, attest.NewRequest(comp, text, values, recJSON, claimed), opts)
			err = attestReport(c, e, map[string]any{"receipt": rec, "attestation": res}, func(w io.Writer, p painter) {
				fmt.Fprintf(w, "receipt:\n%s", indentJSON(recJSON))
				if rec.Error != nil {
					fmt.Fprintf(w, "%s %s\n", p.paint(ansiRed, "run failed:"), escape.Control(*rec.Error))
				}
				printResult(w, res, p)
			})
			if err != nil {
				return err
			}
			if rec.Error != nil || !res.Passed() {
				return findings
			}
			return nil
		})
}

// indentJSON indents JSON text without re-encoding it, so numbers keep the form they were written in.
func indentJSON(b []byte) []byte {
	var buf bytes.Buffer
	if err := json.Indent(&buf, b, "", "  "); err != nil {
		return append(b, '\n')
	}
	buf.WriteByte('\n')
	return buf.Bytes()
}
