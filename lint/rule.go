// Package lint checks OKF v0.2 bundles: the §11 conformance checks and the hygiene rules of every
// family, each a Rule value with a stable code.
package lint

import (
	"fmt"
	"strings"
	"time"

	"github.com/okf-tools/okf/okf"
)

// Rule is one check. It is a value, not an interface (as in go/analysis): its identity, docs, scope,
// the facts it reads and its fix are data that the engine, --list-rules, --explain, --fix, SARIF and
// the docs/lint.md table all read from one place. A rule of okf's is its file (with the facts no
// other rule reads: facts.go) plus one line in the registry (registry.go).
type Rule struct {
	// Code is stable and never reused for another meaning ("OKF001").
	Code string
	// Name is a kebab-case name ("frontmatter-missing").
	Name string
	// Severity is the default severity, set by decisions D1: error only for §11 non-conformance.
	Severity okf.Severity
	// Spec is the spec section the rule comes from ("§5.2"), or "" for a project convention.
	Spec string
	// Decision names the decisions.md entry that fixes the rule's reading ("D12"), if any.
	Decision string
	// Title is a short lowercase summary; Doc explains the rule with a bad and a good example.
	Title string
	Doc   string
	// Scope says what of the bundle Check reads, and so when the engine runs it (see Scope). The
	// zero value, ScopeModel, is the safe one for a rule that declares nothing.
	Scope Scope
	// reads are the facts of the concepts a ScopeBundle rule reads (fact.all, facts.go): a run
	// computes of each concept only the facts some rule of the run reads, and a rule reading one it
	// does not list fails.
	reads []factRef
	// Fix is the rule's mechanical repair of its findings (okf lint --fix), or nil.
	Fix *Fixer
	// Check runs the rule over the bundle (for a ScopeConcept rule, over a view holding one concept)
	// and reports through the pass. It must not fail: problems in the bundle are findings, never Go
	// errors.
	Check func(p *Pass)
}

// Scope is what a rule reads of a bundle. It decides when the engine runs the rule: a ScopeConcept
// rule as each concept loads, before the concept's model is dropped (a Stream), and the others once
// the bundle is loaded. Run, Stream and Session run both steps the same way (see engine.go).
type Scope uint8

const (
	// ScopeModel reads anything of the bundle's model, every concept's included: a run with such a
	// rule keeps every concept's model until the end, and runs it there. It is the zero value, so a
	// rule written outside okf that declares nothing is run as before streaming existed.
	ScopeModel Scope = iota
	// ScopeConcept: the rule's findings about a concept depend on that concept alone and on what the
	// bundle knows of other files (its file set: Stat, ResolvePath, ResolveLink, and ReadFile of a
	// file that is not Markdown: a computation's SQL, a schema). Its Check is given a view
	// (okf.Bundle.Alone) whose Concepts is that one concept, with no index, log or loader
	// diagnostic, and whose ReadFile refuses every .md file but the concept's own (as a missing
	// file); it reports on that concept's file only.
	// TestPerConceptRulesKeepTheirScope checks each rule finds in the views what it would find over
	// the whole bundle.
	ScopeConcept
	// ScopeBundle runs once the bundle is loaded: it reads the bundle's indexes, logs and loader
	// diagnostics, and of the concepts only the facts it declares (Rule.reads), never their model
	// (which a Stream has dropped by then).
	ScopeBundle
)

// Fixer is a rule's mechanical repair: what it does, for --explain and docs, and how it computes
// the fix of one finding.
type Fixer struct {
	// Doc says what the fix does, lowercase, without a trailing period.
	Doc string
	// Make computes the fix of finding d from the bundle and the file's current text; ok is false
	// when this finding cannot be fixed safely (its text is not where the parser said, the value is
	// written over several lines, the fix would clash with another key). memo holds what Make
	// worked out about the file once for all its findings (Fixes keeps one per file; Bound: without
	// it, n findings in one file cost n passes over the file). Every fix is safe: it writes what the
	// finding's message already says okf reads or recommends, and applying it twice changes nothing.
	Make func(b *okf.Bundle, d okf.Diagnostic, src []byte, memo map[string]any) (Fix, bool)
}

// Source says where the rule comes from, for docs: "spec §5.2" or "convention".
func (r *Rule) Source() string {
	if r.Spec == "" {
		return "convention"
	}
	return "spec " + r.Spec
}

// Pass is what a rule sees while it runs: the bundle, the clock and the options, and a way to
// report findings.
type Pass struct {
	Bundle *okf.Bundle
	// Now is the injected clock (D11).
	Now time.Time
	// ExpiringWithin is the "expiring soon" window (D11).
	ExpiringWithin time.Duration
	Rule           *Rule
	report         func(okf.Diagnostic)

	// What the engine rules need besides the bundle: the configuration (nil when there is none),
	// the inline suppressions, and how many goroutines a rule may use for per-concept work.
	cfg     *Config
	supp    *suppressions
	workers int
	schemas *SchemaCheck // the schema check done while loading (nil: none)
	links   *linkTable   // the concepts' body links, resolved once for all rules (nil: resolve per call)
	scratch *ruleScratch // buffers a rule reuses (nil: a pass made outside Run and Stream)
	// factTable holds the concepts' facts the rules that look across files read (nil: a pass
	// made outside Run and Stream computes each from the model on first use).
	factTable *factsTable
	fallback  *schemaFallback // the schema check's compiled schemas (nil: compiled on first use)
}

// ruleScratch holds the buffers the rules fill for each concept. A Stream runs each rule once per
// concept, and a buffer made in each call cost a tenth of the memory allocated in a run; a pass is
// used by one goroutine at a time, so the rules it runs one after the other share them.
type ruleScratch struct {
	ts     []namedTimestamp
	actors []actorField
	paths  []pathField
	said   map[*Rule]string // the message each rule reported last (Pass.message)
}

// buffers returns the pass's scratch (a new one for a pass made without it).
func (p *Pass) buffers() *ruleScratch {
	if p.scratch == nil {
		p.scratch = &ruleScratch{}
	}
	return p.scratch
}

// Reportf reports a finding at pos with the rule's code and default severity; the engine applies
// configured severities and suppressions afterwards.
func (p *Pass) Reportf(pos okf.Position, format string, args ...any) {
	p.report(okf.Diagnostic{Pos: pos, Code: p.Rule.Code, Severity: p.Rule.Severity, Message: p.message(sprintf(format, args))})
}

// ReportRange is Reportf with the end of the offending text, for underlines and SARIF regions.
func (p *Pass) ReportRange(pos, end okf.Position, format string, args ...any) {
	p.report(okf.Diagnostic{Pos: pos, End: end, Code: p.Rule.Code, Severity: p.Rule.Severity, Message: p.message(sprintf(format, args))})
}

// ReportText is Reportf with the message already written: the rules that report on most concepts
// build their message by concatenation, as fmt would print it, without fmt's cost.
func (p *Pass) ReportText(pos okf.Position, msg string) {
	p.report(okf.Diagnostic{Pos: pos, Code: p.Rule.Code, Severity: p.Rule.Severity, Message: p.message(msg)})
}

// sprintf is fmt.Sprintf, without a copy of a format that has no verb and no argument (a
// message the same on every concept it is reported on).
func sprintf(format string, args []any) string {
	if len(args) == 0 && strings.IndexByte(format, '%') < 0 {
		return format
	}
	return fmt.Sprintf(format, clipArgs(args)...)
}

// message returns msg, or the equal message the rule reported last in this pass: a rule that
// reports on most concepts often says the same thing of each (a bundle written by one tool has
// the same values everywhere), and the findings are kept to the end of the run, so equal messages
// share one string (on a 5,678-concept docs bundle, 11,000 of 17,000 findings).
func (p *Pass) message(msg string) string {
	s := p.scratch
	if s == nil || p.Rule == nil {
		return msg
	}
	if last, ok := s.said[p.Rule]; ok && last == msg {
		return last
	}
	if s.said == nil {
		s.said = make(map[*Rule]string)
	}
	s.said[p.Rule] = msg
	return msg
}

// Report passes a diagnostic through as is (the conformance rules surface the loader's own).
func (p *Pass) Report(d okf.Diagnostic) { p.report(d) }
