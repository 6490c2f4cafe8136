package lint

import (
	"io"
	"time"

	"github.com/okf-tools/okf/internal/suggest"
	"github.com/okf-tools/okf/okf"
)

// Report is what a printer writes: the findings of one run and what it needs to show them.
type Report struct {
	// Diagnostics are the findings, sorted, with slash paths from the bundle root.
	Diagnostics []okf.Diagnostic
	// DisplayPath turns a bundle path into the path shown to the user, relative to the working
	// directory so editors and CI can open it (nil: shown as is).
	DisplayPath func(string) string
	// BundlePath turns a finding's path back into its slash path from its own bundle root (nil: it
	// is one). A report over several bundles holds the paths shown; keys that must not depend on
	// the working directory or on the other bundles of the run (SARIF's partialFingerprints, the
	// baseline's key) are made from the bundle path.
	BundlePath func(string) string
	// ReadFile reads a bundle file for the source lines of the pretty format (nil: no source lines).
	// Files are read one at a time, when printed, so no source is held in memory.
	ReadFile func(string) ([]byte, error)
	// Rules are the rules described in SARIF's tool.driver.rules (nil: All()).
	Rules []*Rule
	// Version is okf's version, for SARIF.
	Version string
	// Fixes are the fixes of the findings that have one (Fixes), written into SARIF results as
	// fixes[] (nil: none). Their byte offsets are turned into regions with ReadFile.
	Fixes map[okf.Diagnostic]Fix
	// fixFile and fixSrc keep the last file read for SARIF fixes: findings come sorted by file, so
	// each file is read once, not once per fix (1,000 fixes in a 4 MB file read 4 GB).
	fixFile string
	fixSrc  []byte
	// Color turns on ANSI colour in the pretty format (the CLI sets it for a terminal, without
	// NO_COLOR, or for --color always).
	Color bool
	// Quiet leaves out the closing summary of the human formats (text, pretty, github): the
	// findings only.
	Quiet bool

	// What the human formats (text, pretty, github) show; json and sarif ignore these and keep
	// every finding, for the tools that read them.
	//
	// UseFloor leaves out the findings less severe than Floor: they are counted in the summary,
	// which says how to show them (okf lint shows errors and warnings by default, so the infos of
	// a large bundle do not bury them).
	UseFloor bool
	Floor    okf.Severity
	// FailOn is the least severe severity that fails the run (the zero value is okf.Error, the
	// default of --fail-on): the summary says when findings it hides still fail the run.
	FailOn okf.Severity
	// Group shows a finding alike in GroupMinFiles files or more once, with the count and the first
	// files (see alikeKey for what "alike" is).
	Group bool
	// Files is how many files were checked, for the summary (0: not known, not said).
	Files int
	// Elapsed is how long the run took, for the summary (0: not said). okf lint sets it only for
	// a terminal: output that goes to a file or a pipe stays the same from run to run.
	Elapsed time.Duration
}

func (r *Report) path(p string) string {
	if r.DisplayPath == nil {
		return p
	}
	return r.DisplayPath(p)
}

func (r *Report) bundlePath(p string) string {
	if r.BundlePath == nil {
		return p
	}
	return r.BundlePath(p)
}

func (r *Report) rules() []*Rule {
	if r.Rules == nil {
		return All()
	}
	return r.Rules
}

// Counts returns how many findings there are of each severity.
func (r *Report) Counts() (errors, warnings, infos int) {
	for _, d := range r.Diagnostics {
		switch d.Severity {
		case okf.Error:
			errors++
		case okf.Warning:
			warnings++
		default:
			infos++
		}
	}
	return
}

// Printer writes a report in one output format. Each format is one small type with golden files in
// testdata/format.
type Printer interface {
	Print(w io.Writer, r *Report) error
}

// Formats lists the output formats, the default first.
var Formats = []string{"text", "pretty", "json", "sarif", "github"}

// NewPrinter returns the printer of a format named in Formats.
func NewPrinter(format string) (Printer, error) {
	switch format {
	case "text":
		return TextPrinter{}, nil
	case "pretty":
		return PrettyPrinter{}, nil
	case "json":
		return JSONPrinter{}, nil
	case "sarif":
		return SARIFPrinter{}, nil
	case "github":
		return GitHubPrinter{}, nil
	}
	return nil, suggest.UnknownValue("format", format, Formats)
}

// ruleName returns the kebab-case name of the rule with code among the report's rules (Rules, when
// set, may add codes of their own: okf attest check's ATT codes), else the registry's.
func (r *Report) ruleName(code string) string {
	for _, x := range r.Rules {
		if x.Code == code {
			return x.Name
		}
	}
	return ruleName(code)
}

// ruleName returns the kebab-case name of the rule with code, or "" for an unknown code.
func ruleName(code string) string {
	if r := Lookup(code); r != nil {
		return r.Name
	}
	return ""
}
