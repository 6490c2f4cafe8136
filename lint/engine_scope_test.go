package lint

import (
	"fmt"
	"io/fs"
	"os"
	"reflect"
	"sort"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/okf-tools/okf/okf"
)

// scopeBundles loads every fixture, test bundle and corpus bundle (with its .okf.yaml): the inputs
// the declarations of scope and facts are checked on.
func scopeBundles(t *testing.T) map[string]Options {
	t.Helper()
	dirs := bundleDirs(t, true)
	out := map[string]Options{}
	for _, d := range dirs {
		op, err := okf.OpenFS(os.DirFS(d), 0)
		if err != nil {
			t.Fatalf("open %s: %v", d, err)
		}
		cfg, _, err := LoadConfig(op, "")
		if err != nil {
			continue // a fixture of a bad configuration: no run to compare
		}
		out[d] = Options{Now: streamNow, Config: cfg}
	}
	return out
}

func loadFor(t *testing.T, dir string, opts Options) *okf.Bundle {
	t.Helper()
	var lo okf.LoadOptions
	if opts.Config != nil {
		lo.Ignore = opts.Config.Ignore
	}
	b, err := okf.LoadDir(dir, lo)
	if err != nil {
		t.Fatalf("load %s: %v", dir, err)
	}
	return b
}

// scopeViolation runs a ScopeConcept rule r the engine's way (on a view of each concept alone) and
// over the whole bundle at once, as a rule that may read every concept would be run: when the two
// differ, r's findings depend on something its view does not show (another concept, an index, a
// log), so r is not a per-concept rule. "" when they agree.
func scopeViolation(b *okf.Bundle, r *Rule, opts Options) string {
	opts.Rules = []*Rule{r}
	engine := Run(b, opts)
	whole := newPlan(opts).finish(b, []*Rule{r}, nil, nil, 0)
	if reflect.DeepEqual(engine, whole) {
		return ""
	}
	return fmt.Sprintf("on views of one concept %d findings, over the whole bundle %d: %v / %v", len(engine), len(whole), engine, whole)
}

// TestPerConceptRulesKeepTheirScope: every rule declared ScopeConcept finds, on the views of one
// concept the engine gives it, exactly what it finds over the whole bundle, on every fixture and
// bundle: it reads no other concept's model, no index and no log.
func TestPerConceptRulesKeepTheirScope(t *testing.T) {
	bundles := scopeBundles(t)
	var rules []*Rule
	for _, r := range All() {
		if r.Scope == ScopeConcept {
			rules = append(rules, r)
		}
	}
	if len(rules) < 40 {
		t.Fatalf("only %d per-concept rules", len(rules))
	}
	for dir, opts := range bundles {
		b := loadFor(t, dir, opts)
		for _, r := range rules {
			if v := scopeViolation(b, r, opts); v != "" {
				t.Errorf("%s %s is declared ScopeConcept but reads beyond its concept in %s: %s", r.Code, r.Name, dir, v)
			}
		}
	}
}

// TestScopeViolationCaught: a rule declared per concept that reads another concept's model, the
// bundle's index or the loader's diagnostics is caught by scopeViolation.
func TestScopeViolationCaught(t *testing.T) {
	b := load(t, map[string]string{
		"index.md": "# Metrics\n\n* [A](a.md) - The a.\n",
		"a.md":     "---\ntype: Metric\ntitle: A\n---\n# A\n",
		"b.md":     "---\ntype: Metric\ntitle: A\n---\n# B\n",
		"c.md":     "no frontmatter\n",
	})
	bad := map[string]func(p *Pass){
		"another concept": func(p *Pass) {
			for _, c := range p.Bundle.Concepts {
				for _, o := range p.Bundle.Concepts {
					if o != c && o.Frontmatter.Title.Text() == c.Frontmatter.Title.Text() {
						p.Reportf(okf.Position{Path: c.Path, Line: 1, Col: 1}, "title also in %s", o.Path)
					}
				}
			}
		},
		"the index": func(p *Pass) {
			for _, c := range p.Bundle.Concepts {
				if p.Bundle.RootIndex() == nil {
					p.Reportf(okf.Position{Path: c.Path, Line: 1, Col: 1}, "no index")
				}
			}
		},
		"another concept's text": func(p *Pass) {
			for _, c := range p.Bundle.Concepts {
				if data, err := p.Bundle.ReadFile("b.md"); err == nil {
					p.Reportf(okf.Position{Path: c.Path, Line: 1, Col: 1}, "b.md has %d bytes", len(data))
				}
			}
		},
		"the index's text": func(p *Pass) {
			for _, c := range p.Bundle.Concepts {
				if _, err := p.Bundle.ReadFile("index.md"); err == nil {
					p.Reportf(okf.Position{Path: c.Path, Line: 1, Col: 1}, "index read")
				}
			}
		},
		"the loader's diagnostics": func(p *Pass) {
			for _, c := range p.Bundle.Concepts {
				p.Reportf(okf.Position{Path: c.Path, Line: 1, Col: 1}, "%d diagnostics", len(p.Bundle.Diagnostics))
			}
		},
	}
	for what, check := range bad {
		r := &Rule{Code: "OKF0T9", Name: "test-peek", Severity: okf.Info, Scope: ScopeConcept, Check: check}
		if scopeViolation(b, r, Options{Now: streamNow}) == "" {
			t.Errorf("a per-concept rule reading %s is not caught", what)
		}
	}
	if v := scopeViolation(b, TitleMissing, Options{Now: streamNow}); v != "" {
		t.Errorf("title-missing: %s", v)
	}
}

// factsViolation runs a ScopeBundle rule r alone through a Stream over the bundle fsys holds, so
// that the run computes only the facts r declares (Rule.reads), r fails reading another, and every
// concept's model is dropped before r runs; and over the bundle loaded whole with every fact of the
// registry and r's computed, r free to read any: when the two differ, r reads a fact it does not
// declare, or the concepts' model itself.
func factsViolation(t *testing.T, fsys fs.FS, r *Rule, opts Options) string {
	t.Helper()
	opts.Rules = []*Rule{r}
	s := NewStream(opts)
	if s.pl.whole || len(s.pl.perConcept) != 0 {
		t.Fatalf("%s: a run of one ScopeBundle rule drops nothing", r.Code)
	}
	declared := s.Finish(loadFS(t, fsys, opts, s.OnConcept))
	pl := newPlan(opts)
	pl.facts, pl.every = factsRead(append([]*Rule{{Scope: ScopeModel}}, r)), true
	every := pl.run(loadFS(t, fsys, opts, nil))
	if reflect.DeepEqual(declared, every) {
		return ""
	}
	return fmt.Sprintf("with the facts it declares (the model dropped) %d findings, with all and the model %d: %v / %v", len(declared), len(every), declared, every)
}

// loadFS loads the bundle in fsys as lint does (with the configuration's ignore list), calling
// onConcept for each concept when not nil (a Stream's). The concepts the Stream saw must be the
// ones it finishes with: it finds them by pointer.
func loadFS(t *testing.T, fsys fs.FS, opts Options, onConcept func(*okf.Bundle, *okf.Concept)) *okf.Bundle {
	t.Helper()
	lo := okf.LoadOptions{OnConcept: onConcept}
	if opts.Config != nil {
		lo.Ignore = opts.Config.Ignore
	}
	b, err := okf.Load(fsys, lo)
	if err != nil {
		t.Fatalf("load: %v", err)
	}
	return b
}

// TestBundleRulesDeclareTheirFacts: every ScopeBundle rule, run alone (the run keeps only the facts
// it declares), finds what it finds with every fact kept, on every fixture and bundle.
func TestBundleRulesDeclareTheirFacts(t *testing.T) {
	bundles := scopeBundles(t)
	for dir, opts := range bundles {
		for _, r := range All() {
			if r.Scope != ScopeBundle {
				continue
			}
			if v := factsViolation(t, os.DirFS(dir), r, opts); v != "" {
				t.Errorf("%s %s reads a fact it does not declare in %s: %s", r.Code, r.Name, dir, v)
			}
		}
	}
}

// TestFactsViolationCaught: a bundle rule reading titles without declaring them is caught, and so is
// one reading the concepts' model itself (which a Stream has dropped by then). The undeclared read
// fails the rule, on any bundle: Run says so too.
func TestFactsViolationCaught(t *testing.T) {
	m := fstest.MapFS{
		"a.md": {Data: []byte("---\ntype: Metric\ntitle: A\n---\n# A\n\nSee [b](b.md).\n")},
		"b.md": {Data: []byte("---\ntype: Metric\ntitle: B\n---\n# B\n")},
	}
	undeclared := &Rule{Code: "OKF0T8", Name: "test-undeclared", Severity: okf.Info, Scope: ScopeBundle, reads: []factRef{factPresent}, Check: func(p *Pass) {
		for i, title := range factTitle.all(p) {
			p.Reportf(okf.Position{Path: p.Bundle.Concepts[i].Path, Line: 1, Col: 1}, "title %q", title.Text())
		}
	}}
	if factsViolation(t, m, undeclared, Options{Now: streamNow}) == "" {
		t.Error("a bundle rule reading an undeclared fact is not caught")
	}
	const fails = `rule OKF0T8 (test-undeclared) failed: it reads the fact "title" without declaring it (Rule.reads); this is a bug in okf, please report it`
	if ds := Run(loadFS(t, m, Options{}, nil), Options{Now: streamNow, Rules: []*Rule{undeclared}}); len(ds) != 1 || ds[0].Message != fails {
		t.Errorf("Run of a rule reading an undeclared fact: %v, want the one finding %q", ds, fails)
	}
	undeclared.reads = []factRef{factTitle}
	if v := factsViolation(t, m, undeclared, Options{Now: streamNow}); v != "" {
		t.Errorf("declared, still: %s", v)
	}
	for what, check := range map[string]func(p *Pass){
		"titles": func(p *Pass) {
			for _, c := range p.Bundle.Concepts {
				p.Reportf(okf.Position{Path: c.Path, Line: 1, Col: 1}, "title %q", c.Frontmatter.Title.Text())
			}
		},
		"links": func(p *Pass) {
			for _, c := range p.Bundle.Concepts {
				for _, l := range c.Body.Links {
					p.Reportf(l.Pos, "link to %s", l.Target)
				}
			}
		},
	} {
		model := &Rule{Code: "OKF0T6", Name: "test-model", Severity: okf.Info, Scope: ScopeBundle, reads: factsRead(All()), Check: check}
		if factsViolation(t, m, model, Options{Now: streamNow}) == "" {
			t.Errorf("a bundle rule reading the concepts' %s from the model is not caught", what)
		}
	}
}

// TestRunMatchesWholeModel: Run (the per-concept rules on views of one concept, then the other
// rules over the facts) finds what every rule finds run over the whole loaded bundle at once, as
// before the engine had scopes, on every fixture, test bundle and corpus bundle. The scope tests
// check each rule alone; this checks the rules together, the facts the views make included.
func TestRunMatchesWholeModel(t *testing.T) {
	for dir, opts := range scopeBundles(t) {
		b := loadFor(t, dir, opts)
		got := Run(b, opts)
		pl := newPlan(opts)
		if len(pl.perConcept) == 0 || len(pl.rest) == 0 {
			t.Fatalf("%s: %d per-concept rules, %d others", dir, len(pl.perConcept), len(pl.rest))
		}
		whole := pl.finish(b, pl.active, nil, nil, 0)
		if !reflect.DeepEqual(got, whole) {
			t.Errorf("%s: Run found %d findings, all rules over the whole bundle %d:\n%s", dir, len(got), len(whole), diffFindings(got, whole))
		}
	}
}

// diffFindings lists the findings only one of a and b has.
func diffFindings(a, b []okf.Diagnostic) string {
	in := func(ds []okf.Diagnostic) map[string]int {
		m := map[string]int{}
		for _, d := range ds {
			m[d.String()]++
		}
		return m
	}
	ma, mb := in(a), in(b)
	var out []string
	for k, n := range ma {
		if mb[k] < n {
			out = append(out, "only in Run: "+k)
		}
	}
	for k, n := range mb {
		if ma[k] < n {
			out = append(out, "only whole: "+k)
		}
	}
	sort.Strings(out)
	return strings.Join(out, "\n")
}
