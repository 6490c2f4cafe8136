package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"

	"github.com/okf-tools/okf/lint"
	"github.com/okf-tools/okf/okf"
	"github.com/urfave/cli/v2"
)

func lintCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:      "lint",
		Usage:     "check a bundle for OKF v0.2 conformance (§11) and hygiene",
		ArgsUsage: "[PATH]",
		Description: "Lints the bundle at PATH (default: the current directory) and prints one finding per\n" +
			"line as path:line:col: message [CODE]. Exit 0 when no finding is an error, 1 when some are,\n" +
			"2 on bad usage, 3 when PATH cannot be read.",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "format", Aliases: []string{"f"}, Value: "text", Usage: "output `FORMAT`: text or json"},
			&cli.StringFlag{Name: "now", Usage: "judge time as of `TIME` (RFC 3339, or a date for 00:00 UTC); default $OKF_NOW, else the clock"},
		},
		Action: func(c *cli.Context) error {
			if c.NArg() > 1 {
				return usageErr("lint takes one bundle path, got %d", c.NArg())
			}
			root := "."
			if c.NArg() == 1 {
				root = c.Args().First()
			}
			format := c.String("format")
			if format != "text" && format != "json" {
				return usageErr("unknown format %q (want text or json)", format)
			}
			now, err := okf.ResolveNow(c.String("now"), e.getenv)
			if err != nil {
				return usageErr("--now: %v", err)
			}
			b, err := okf.LoadDir(root, okf.LoadOptions{})
			if err != nil {
				if errors.Is(err, okf.ErrNotBundle) {
					return fatalErr("%v", err)
				}
				return fatalErr("%v", err)
			}
			ds := lint.Run(b, lint.Options{Now: now})
			for i := range ds {
				ds[i].Pos.Path = displayPath(root, ds[i].Pos.Path)
				if ds[i].End.Path != "" {
					ds[i].End.Path = ds[i].Pos.Path
				}
			}
			if format == "json" {
				if err := writeLintJSON(e, ds); err != nil {
					return fatalErr("%v", err)
				}
			} else {
				for _, d := range ds {
					fmt.Fprintln(e.stdout, d.String())
				}
			}
			for _, d := range ds {
				if d.Severity == okf.Error {
					return findings
				}
			}
			return nil
		},
	}
}

// displayPath shows a bundle path as a path from the working directory, so editors and CI can open it.
func displayPath(root, p string) string {
	if root == "." || root == "" {
		return p
	}
	return filepath.ToSlash(filepath.Join(root, filepath.FromSlash(p)))
}

type jsonFinding struct {
	Path     string `json:"path"`
	Line     int    `json:"line"`
	Column   int    `json:"column"`
	Code     string `json:"code"`
	Rule     string `json:"rule"`
	Severity string `json:"severity"`
	Message  string `json:"message"`
}

func writeLintJSON(e *env, ds []okf.Diagnostic) error {
	out := struct {
		Findings []jsonFinding `json:"findings"`
		Errors   int           `json:"errors"`
		Warnings int           `json:"warnings"`
		Infos    int           `json:"infos"`
	}{Findings: []jsonFinding{}}
	for _, d := range ds {
		name := ""
		if r := lint.ByCode(d.Code); r != nil {
			name = r.Name
		}
		out.Findings = append(out.Findings, jsonFinding{Path: d.Pos.Path, Line: d.Pos.Line, Column: d.Pos.Col, Code: d.Code, Rule: name, Severity: d.Severity.String(), Message: d.Message})
		switch d.Severity {
		case okf.Error:
			out.Errors++
		case okf.Warning:
			out.Warnings++
		default:
			out.Infos++
		}
	}
	enc := json.NewEncoder(e.stdout)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}
