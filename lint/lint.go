package lint

import (
	"fmt"
	"runtime"
	"sync"
	"time"

	"github.com/okf-tools/okf/okf"
)

// NoExpiringWindow is the window of a user who wrote 0: nothing is "expiring soon". Zero itself
// means "not set" in Options and Config.
const NoExpiringWindow time.Duration = -1

// WindowSetting turns a window the user wrote into the value Options and Config hold.
func WindowSetting(d time.Duration) time.Duration {
	if d == 0 {
		return NoExpiringWindow
	}
	return d
}

// Options configures a run.
type Options struct {
	// Now is the clock (D11); ExpiringWithin the "expiring soon" window (0: the configuration's
	// expiring_within, else okf.DefaultExpiringWindow; NoExpiringWindow turns it off).
	Now            time.Time
	ExpiringWithin time.Duration
	// Rules to run (nil: All()).
	Rules []*Rule
	// Config is the parsed .okf.yaml (nil: none): rule settings, overrides, schemas, and its own
	// problems, which the engine rules report.
	Config *Config
	// Files, when not empty, limits the findings reported to those slash paths from the bundle root
	// (`okf lint FILE…`); the whole bundle is still read, so cross-file rules see their context.
	Files []string
	// Filter, when not nil, keeps only the findings whose slash path it accepts (`okf lint DIR` on a
	// folder below the bundle root); it applies with Files.
	Filter func(path string) bool
	// Baseline drops the findings it accounts for (nil: none).
	Baseline *Baseline
	// Workers is how many things a run does at once (0: one per CPU), so a caller sharing the
	// machine can bound it: how many concepts Run's per-concept rules check at once (a Stream
	// checks each concept on the loader's worker that parsed it), then how many of the other rules
	// run at once, and how many goroutines a rule that spreads its own work (the schema check) uses.
	Workers int
	// Schemas holds the schema check run while the bundle was loaded (NewSchemaCheck), whose
	// findings the schema-mismatch rule reports instead of parsing each frontmatter again (nil:
	// the rule checks every concept itself).
	Schemas *SchemaCheck
}

// Run runs the rules over a loaded bundle and returns the findings sorted and deduplicated, after
// the configuration's severities and overrides, inline suppressions, the file filter and the
// baseline are applied, in that order.
//
// It runs the two steps of every run (see engine.go): the per-concept rules on each concept, the
// concepts in parallel, then the other rules in parallel, each over the whole bundle on its own
// goroutine. A rule only reads the bundle, and its findings are collected apart, so the result
// does not depend on scheduling. The bundle's model is left whole.
func Run(b *okf.Bundle, opts Options) []okf.Diagnostic {
	return newPlan(opts).run(b)
}

// plan is what a run settles before any rule runs: the rules, those the configuration lets run,
// which of them run per concept, the facts the others read, the window and the workers.
type plan struct {
	opts    Options
	rules   []*Rule // opts.Rules, or All()
	active  []*Rule // the rules the configuration lets run, in rules' order
	cfg     *Config
	window  time.Duration
	workers int

	perConcept []*Rule   // the active ScopeConcept rules: the per-concept step
	rest       []*Rule   // the other active rules: the bundle step
	whole      bool      // an active rule reads the whole model (ScopeModel): nothing is dropped
	facts      []factRef // the facts of the concepts the rules of rest read (and the engine's)
	every      bool      // a rule may read a fact it does not declare (the declaration tests' runs)
}

func newPlan(opts Options) *plan {
	pl := &plan{opts: opts, rules: opts.Rules, cfg: opts.Config}
	if pl.rules == nil {
		pl.rules = All()
	}
	pl.window = opts.ExpiringWithin
	if pl.window == 0 && pl.cfg != nil {
		pl.window = pl.cfg.ExpiringWithin
	}
	switch {
	case pl.window == 0:
		pl.window = okf.DefaultExpiringWindow
	case pl.window < 0:
		pl.window = 0 // NoExpiringWindow: okf.FreshnessOf reports nothing as expiring
	}
	pl.workers = opts.Workers
	if pl.workers <= 0 {
		pl.workers = runtime.GOMAXPROCS(0)
	}
	for _, r := range pl.rules {
		if pl.cfg.mayRun(r) {
			pl.active = append(pl.active, r)
		}
	}
	pl.split()
	return pl
}

// finish is the bundle step (engine.go): it runs the rules in run over the loaded bundle, adds the
// findings already made (earlier, by the per-concept step; given is then the concepts' facts, by
// index; nil: each computed from the model on first use), and applies the configuration,
// suppressions, filters and baseline.
//
// The result does not depend on the order of earlier: findings are sorted by position, code and
// message, and two that tie there come from one rule on one file, whose findings keep their order
// (the per-concept step reports each concept's findings of a rule together, in the rule's order).
func (pl *plan) finish(b *okf.Bundle, run []*Rule, given *factsTable, earlier [][]okf.Diagnostic, nEarlier int) []okf.Diagnostic {
	opts, cfg := pl.opts, pl.cfg
	links := newLinkTable(b)
	facts := given
	directives := func(i int) []okf.Comment {
		if c := b.Concepts[i]; c.Body != nil {
			return c.Body.Comments
		}
		return nil
	}
	if given == nil {
		facts = &factsTable{b: b, links: links, every: pl.every}
	} else {
		dirs := factDirectives.all(&Pass{factTable: given})
		directives = func(i int) []okf.Comment { return dirs[i] }
	}
	supp := parseSuppressions(b, directives)

	found := make([]collector, len(run))
	slots := pathSlots(b)
	var wg sync.WaitGroup
	next := make(chan int)
	for range min(pl.workers, len(run)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				r := run[i]
				c := &found[i]
				c.slots = slots
				p := &Pass{Bundle: b, Now: opts.Now, ExpiringWithin: pl.window, Rule: r, cfg: cfg, supp: supp, workers: pl.workers, schemas: opts.Schemas, links: links,
					factTable: facts, report: c.report}
				check(r, p)
				c.flush()
			}
		}()
	}
	for i := range run {
		next <- i
	}
	close(next)
	wg.Wait()

	total := nEarlier
	for i := range found {
		total += found[i].n
	}
	var out []okf.Diagnostic // nil when nothing is found, as before
	if total > 0 {
		out = make([]okf.Diagnostic, 0, total)
	}
	for i, ds := range earlier {
		out = appendFindings(out, ds)
		earlier[i] = nil
	}
	for i := range found {
		for _, ch := range found[i].chunks {
			out = appendFindings(out, ch)
		}
		found[i].chunks = nil
	}
	out = dropSchemaDuplicates(out)
	out = applyConfig(out, cfg)
	out = supp.apply(out)
	if r := Lookup(UnusedSuppression.Code); r != nil && cfg.mayRun(r) && ruleIn(pl.rules, r) {
		out = append(out, applyConfig(supp.unused(), cfg)...)
	}
	if len(opts.Files) > 0 {
		keep := make(map[string]bool, len(opts.Files))
		for _, f := range opts.Files {
			keep[f] = true
		}
		filtered := out[:0]
		for _, d := range out {
			if keep[d.Pos.Path] {
				filtered = append(filtered, d)
			}
		}
		out = filtered
	}
	if opts.Filter != nil {
		filtered := out[:0]
		for _, d := range out {
			if opts.Filter(d.Pos.Path) {
				filtered = append(filtered, d)
			}
		}
		out = filtered
	}
	out = okf.SortDiagnostics(out)
	return opts.Baseline.Filter(out)
}

// appendFindings is append(out, ds...) as a call of its own, so that the loops gathering every
// finding stop where the collector asks. The copy (runtime.typedslicecopy) is nosplit runtime
// code, where a goroutine cannot be stopped, and such a loop spends nearly all its time in it: a
// collection starting during it mostly found the goroutine there, and its idle worker spun
// signalling it, a 1 ms gathering of a 5,678-file lint's findings taking 15–19 ms and 17 ms of
// CPU more (docs/dev/performance.md, "How a run is shaped"). This function's entry checks the
// stack, which is where a goroutine asked to stop stops, once per chunk (a chunk is one concept's
// or one rule's findings, each copied in one call).
//
//go:noinline
func appendFindings(out, ds []okf.Diagnostic) []okf.Diagnostic {
	return append(out, ds...)
}

// check runs one rule. A rule that panics is a bug in okf, not in the bundle: it becomes a finding
// that names the rule, and the other rules still run.
func check(r *Rule, p *Pass) {
	if e := try(r, p); e != nil {
		p.report(failure(r, e))
	}
}

// try runs one rule and returns what it panicked with (nil: it did not).
func try(r *Rule, p *Pass) (panicked any) {
	defer func() { panicked = recover() }()
	r.Check(p)
	return nil
}

// failure is the finding about a rule that panicked with e.
func failure(r *Rule, e any) okf.Diagnostic {
	return okf.Diagnostic{Code: r.Code, Severity: okf.Warning,
		Message: fmt.Sprintf("rule %s (%s) failed: %v; this is a bug in okf, please report it", r.Code, r.Name, e)}
}

func ruleIn(rules []*Rule, r *Rule) bool {
	for _, x := range rules {
		if x == r {
			return true
		}
	}
	return false
}

// dropSchemaDuplicates leaves out a schema finding on a line where another rule already reports:
// the family rules say the same thing more precisely. Only the schema findings' lines are kept in
// the set (on a bundle where every concept fails the schema, a fifth of the findings, not all).
func dropSchemaDuplicates(ds []okf.Diagnostic) []okf.Diagnostic {
	type line struct {
		path string
		n    int32
	}
	var taken map[line]bool
	for _, d := range ds {
		if d.Code == SchemaMismatch.Code {
			if taken == nil {
				taken = map[line]bool{}
			}
			taken[line{d.Pos.Path, d.Pos.Line}] = false
		}
	}
	if taken == nil {
		return ds
	}
	for _, d := range ds {
		if d.Code != SchemaMismatch.Code {
			l := line{d.Pos.Path, d.Pos.Line}
			if _, ok := taken[l]; ok {
				taken[l] = true
			}
		}
	}
	out := ds[:0]
	for _, d := range ds {
		if d.Code == SchemaMismatch.Code && taken[line{d.Pos.Path, d.Pos.Line}] {
			continue
		}
		out = append(out, d)
	}
	return out
}

// applyConfig sets each finding's severity from the configuration, and drops the findings of rules
// turned off for their file.
func applyConfig(ds []okf.Diagnostic, cfg *Config) []okf.Diagnostic {
	if cfg == nil {
		return ds
	}
	out := ds[:0]
	for _, d := range ds {
		r := Lookup(d.Code)
		if r == nil {
			out = append(out, d)
			continue
		}
		s := cfg.setting(r, d.Pos.Path, d.Severity)
		if s.Off {
			continue
		}
		d.Severity = s.Severity
		out = append(out, d)
	}
	return out
}
