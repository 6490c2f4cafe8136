package attest

import (
	"fmt"
	"sort"
	"strings"

	"github.com/okf-tools/okf/internal/sqllex"
	"github.com/okf-tools/okf/okf"
)

// Codes of the static contract checks (D17). A check that okf lint also makes shares lint's code
// (OKF7xx) and its default severity, so a finding reads the same from both commands and a
// configuration or baseline names it once; the checks only attest makes keep an ATT code. Codes
// are stable: a code is never reused. Every one is a warning or info, never an error: §10 is an
// optional family, so nothing here breaks conformance (D1).
const (
	CodeNoRuntime        = "OKF701" // runtime missing (§10.2 REQUIRED for the type); lint's computation-runtime-missing
	CodeNoComputation    = "OKF702" // neither an inline block nor a computation path (§10.3); lint's computation-count
	CodeBothComputations = "OKF702" // both an inline block and a computation path (§10.3)
	CodeManyBlocks       = "OKF702" // several code blocks under # Computation (§10.3)
	CodeComputationFile  = "OKF708" // computation path that leaves the bundle or resolves to nothing (D14); lint's computation-file-missing
	CodeParamIncomplete  = "OKF703" // a parameter without name, type or required (§10.2); lint's parameter-incomplete
	CodeUndeclared       = "OKF704" // a placeholder that no parameter declares (D17); lint's placeholder-undeclared
	CodeUnused           = "OKF705" // a declared parameter the computation never uses (D17); lint's parameter-unused
	// ATT009 (receipt missing or empty) and ATT010 (no attester.resource) are retired: okf lint's
	// OKF706 receipt-not-list, OKF707 attester-unresolved and OKF711 computation-party-missing
	// report them, and okf attest check shows lint's findings for them.
	CodeAttesterMissing = "OKF707" // attester path resolves to nothing in the bundle (D14); lint's attester-unresolved
	CodeAttesterOutside = "ATT012" // attester path leaves the bundle, by .. or a symbolic link (D14)
	CodeAttesterKind    = "ATT013" // attester okf cannot run: URL, folder, unknown builtin, not executable (D18)
	CodeParamType       = "ATT014" // a parameter type okf cannot check values against
	CodeParamDuplicate  = "ATT015" // a parameter name declared twice
)

// CodeInfo describes a code of attest's own (ATT…), for reports that list their rules (SARIF).
type CodeInfo struct {
	Code, Name, Title string
	Severity          okf.Severity
}

// OwnCodes lists the checks only attest makes; the others are okf lint's rules.
var OwnCodes = []CodeInfo{
	{CodeAttesterOutside, "attester-outside", "the attester path leaves the bundle, by .. or a symbolic link (D14)", okf.Warning},
	{CodeAttesterKind, "attester-unrunnable", "the attester cannot run: a URL, a folder, an unknown builtin:NAME, a file neither .py nor executable (D18)", okf.Warning},
	{CodeParamType, "parameter-type-unknown", "a parameter type okf cannot check values against", okf.Info},
	{CodeParamDuplicate, "parameter-duplicate", "a parameter name declared twice", okf.Warning},
}

// Check runs the static contract checks (D17) on every Attested Computation, plus whether each
// attester can be run (D18). No receipt is needed, so it fits CI. Findings are sorted.
func Check(b *okf.Bundle, comps []*Computation) []okf.Diagnostic {
	var out []okf.Diagnostic
	for _, c := range comps {
		out = append(out, checkOne(c)...)
	}
	return okf.SortDiagnostics(out)
}

func checkOne(c *Computation) []okf.Diagnostic {
	var ds []okf.Diagnostic
	fm := c.Concept.Frontmatter
	at := func(pos okf.Position, code string, sev okf.Severity, format string, a ...any) {
		if pos.Path == "" {
			pos = okf.Position{Path: c.Concept.Path, Line: fm.Type.Pos.Line, Col: fm.Type.Pos.Col}
		}
		ds = append(ds, okf.Diagnostic{Pos: pos, Code: code, Severity: sev, Message: fmt.Sprintf(format, a...)})
	}
	typePos := fm.Type.Pos
	if c.Runtime == "" {
		at(typePos, CodeNoRuntime, okf.Warning, "Attested Computation has no runtime; it is REQUIRED for this type and says how parameters bind (§10.2)")
	}
	hasFile := fm.Computation().Present()
	switch {
	case hasFile && len(c.inline) > 0:
		at(fm.KeyPos("computation"), CodeBothComputations, okf.Warning, "both `computation` and a code block under # Computation are given; keep exactly one (§10.3)")
	case !hasFile && len(c.inline) == 0:
		at(typePos, CodeNoComputation, okf.Warning, "no computation: add a single code block under # Computation or a `computation` path (§10.3)")
	case len(c.inline) > 1:
		at(c.inline[1].Pos, CodeManyBlocks, okf.Warning, "%d code blocks under # Computation; the computation must be a single block (§10.3)", len(c.inline))
	}
	if hasFile {
		v := fm.Computation().Text()
		switch {
		case c.file.Escapes:
			at(fm.Computation().Pos, CodeComputationFile, okf.Warning, "computation %q leaves the bundle and is never opened (D14)", v)
		case c.file.Kind == okf.RefExternal:
			// A URL is allowed by §6.2; okf cannot read it, which is not a contract breach.
		case c.file.Kind != okf.RefLocal:
			at(fm.Computation().Pos, CodeComputationFile, okf.Warning, "computation is not a path (§6.2)")
		case !c.file.Exists || c.file.IsDir:
			at(fm.Computation().Pos, CodeComputationFile, okf.Warning, "computation file %q does not exist in the bundle (D14)", v)
		}
	}
	// Parameters: each needs name, type and required (§10.2).
	if fm.Parameters().Present() && fm.Parameters().Kind != okf.Sequence && fm.Parameters().Kind != okf.Null {
		at(fm.Parameters().Pos, CodeParamIncomplete, okf.Warning, "parameters is %s; expected a list of {name, type, required} (§10.2)", fm.Parameters().Describe())
	}
	seen := map[string]bool{}
	for i, p := range fm.Parameters().Items {
		var lacks []string
		if p.Kind != okf.Mapping {
			at(p.Pos, CodeParamIncomplete, okf.Warning, "parameter %d is %s; expected a mapping {name, type, required} (§10.2)", i+1, p.Describe())
			continue
		}
		if strings.TrimSpace(p.Name.Text()) == "" {
			lacks = append(lacks, "name")
		}
		if strings.TrimSpace(p.Type.Text()) == "" {
			lacks = append(lacks, "type")
		}
		if _, ok := p.Required.Bool(); !ok {
			lacks = append(lacks, "required (true or false)")
		}
		label := c.Params[i].Name
		if label == "" {
			label = fmt.Sprintf("#%d", i+1)
		}
		if len(lacks) > 0 {
			at(p.Pos, CodeParamIncomplete, okf.Warning, "parameter %s lacks %s (§10.2)", label, strings.Join(lacks, ", "))
		}
		if n := c.Params[i].Name; n != "" {
			if seen[n] {
				at(p.Pos, CodeParamDuplicate, okf.Warning, "parameter %q is declared twice", n)
			}
			seen[n] = true
		}
		if t := c.Params[i].Type; t != "" && sqllex.IsSQLRuntime(c.Runtime) {
			if _, ok := typeAliases[t]; !ok {
				at(p.Type.Pos, CodeParamType, okf.Info, "parameter %q has type %q, which okf cannot check values against (known: %s)", label, t, strings.Join(TypeNames, ", "))
			}
		}
	}
	// Placeholders against declarations (D17): @name for SQL runtimes, var('name') for dbt.
	if c.Source.Text != "" {
		syntax := sqllex.PlaceholderSyntax(c.Runtime)
		phs := sqllex.Placeholders(c.Source.Text, c.Runtime)
		form := "@%s"
		if syntax == "dbt" {
			form = "var('%s')"
		}
		if syntax != "" {
			used := map[string]bool{}
			srcPos := c.Source.Pos
			if c.Source.Kind == "file" {
				srcPos = okf.Position{Path: c.Source.Path}
			}
			var undeclared []string
			for _, ph := range phs {
				if !used[ph.Name] && !seen[ph.Name] {
					undeclared = append(undeclared, fmt.Sprintf(form, ph.Name))
				}
				used[ph.Name] = true
			}
			sort.Strings(undeclared)
			for _, u := range undeclared {
				at(srcPos, CodeUndeclared, okf.Warning, "the computation uses %s, which no parameter declares (D17)", u)
			}
			for i, p := range c.Params {
				if p.Name != "" && !used[p.Name] {
					at(fm.Parameters().Items[i].Pos, CodeUnused, okf.Warning, "parameter %q is declared but the computation never uses "+form+" (D17)", p.Name, p.Name)
				}
			}
		}
	}
	a := c.Attester
	switch a.State {
	case "missing":
		at(a.Pos, CodeAttesterMissing, okf.Warning, "%s (D14)", a.Problem)
	case "outside":
		at(a.Pos, CodeAttesterOutside, okf.Warning, "%s", a.Problem)
	case "unrunnable":
		at(a.Pos, CodeAttesterKind, okf.Warning, "%s", a.Problem)
	case "ok":
		if a.Outside {
			at(a.Pos, CodeAttesterOutside, okf.Warning, "attester %q resolves outside the bundle (to %q from the bundle root); allowed by --allow-outside", a.Resource, a.Shown)
		}
	}
	return ds
}
