package lint

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/okf-tools/okf/okf"
)

// fixtureNow is the clock of every rule fixture (D11), so stale and expiring findings are fixed.
var fixtureNow = time.Date(2026, 7, 1, 0, 0, 0, 0, time.UTC)

// fixtureless are rules whose bad case cannot be a committed folder, with the test that covers them.
var fixtureless = map[string]string{
	okf.CodeUnreadable: "git keeps no read permissions and root reads anything: TestFileUnreadable uses a failing fs.FS",
}

// fixtureRules are the rules with fixture folders: conformance and family rules. Engine rules
// (configuration, suppression) are tested with the engine.
func fixtureRules() []*Rule {
	return append(conformanceRules(), familyRules()...)
}

// runOne loads the bundle at dir and runs only rule r with the fixture clock, returning the findings
// as text lines (path:line:col: message [CODE]) with the fixture folder's absolute path replaced
// by $FIXTURE.
func runOne(t *testing.T, r *Rule, dir string) []string {
	t.Helper()
	dir, err := filepath.Abs(dir)
	if err != nil {
		t.Fatal(err)
	}
	b, err := okf.LoadDir(dir, okf.LoadOptions{})
	if err != nil {
		t.Fatalf("load %s: %v", dir, err)
	}
	abs := filepath.ToSlash(filepath.Dir(dir))
	var out []string
	for _, d := range Run(b, Options{Now: fixtureNow, Rules: []*Rule{r}}) {
		if d.Code != r.Code {
			t.Errorf("rule %s reported code %s: %s", r.Code, d.Code, d)
		}
		if d.Severity != r.Severity {
			t.Errorf("rule %s reported severity %s, its default is %s: %s", r.Code, d.Severity, r.Severity, d)
		}
		out = append(out, strings.ReplaceAll(d.String(), abs, "$FIXTURE"))
	}
	return out
}

// TestRuleFixtures runs each rule alone over its fixtures (actionlint style):
// testdata/rules/CODE/bad is a small bundle whose findings must equal bad.out line for line, and
// testdata/rules/CODE/good must give no finding of that code.
func TestRuleFixtures(t *testing.T) {
	for _, r := range fixtureRules() {
		if _, ok := fixtureless[r.Code]; ok {
			continue
		}
		t.Run(r.Code+"-"+r.Name, func(t *testing.T) {
			dir := filepath.Join("testdata", "rules", r.Code)
			want, err := os.ReadFile(filepath.Join(dir, "bad.out"))
			if err != nil {
				t.Fatalf("missing expected findings: %v", err)
			}
			wantLines := strings.Split(strings.TrimRight(string(want), "\n"), "\n")
			got := runOne(t, r, filepath.Join(dir, "bad"))
			if len(got) == 0 {
				t.Fatalf("bad fixture gave no finding of %s", r.Code)
			}
			if strings.Join(got, "\n") != strings.Join(wantLines, "\n") {
				t.Errorf("bad findings differ\n--- got\n%s\n--- want\n%s", strings.Join(got, "\n"), strings.Join(wantLines, "\n"))
			}
			if got := runOne(t, r, filepath.Join(dir, "good")); len(got) > 0 {
				t.Errorf("good fixture gave findings:\n%s", strings.Join(got, "\n"))
			}
		})
	}
}

// brokenFS is a bundle of two concepts whose b.md cannot be read (an I/O error).
type brokenFS struct{}

func (brokenFS) files() fstest.MapFS {
	return fstest.MapFS{"a.md": {Data: []byte("---\ntype: Note\n---\n")}, "b.md": {Data: []byte("---\ntype: Note\n---\n")}}
}

func (f brokenFS) Open(name string) (fs.File, error) {
	file, err := f.files().Open(name)
	if err != nil || name != "b.md" {
		return file, err
	}
	return brokenFile{file}, nil
}

// brokenFile opens but fails to read, as a file on a failing disk does.
type brokenFile struct{ fs.File }

func (brokenFile) Read([]byte) (int, error) {
	return 0, &fs.PathError{Op: "read", Path: "b.md", Err: errors.New("input/output error")}
}

func (f brokenFS) ReadFile(name string) ([]byte, error) {
	if name == "b.md" {
		return nil, &fs.PathError{Op: "read", Path: name, Err: errors.New("input/output error")}
	}
	return f.files().ReadFile(name)
}

// TestFileUnreadable covers OKF010, which no committed fixture can produce.
func TestFileUnreadable(t *testing.T) {
	fsys := brokenFS{}
	b, err := okf.Load(fsys, okf.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	ds := Run(b, Options{Now: fixtureNow, Rules: []*Rule{FileUnreadable}})
	if len(ds) != 1 || ds[0].Code != okf.CodeUnreadable || ds[0].Pos.Path != "b.md" || ds[0].Severity != okf.Error {
		t.Fatalf("want one OKF010 error on b.md, got %v", ds)
	}
}

var (
	codeRE = regexp.MustCompile(`^OKF\d{3}$`)
	nameRE = regexp.MustCompile(`^[a-z0-9]+(-[a-z0-9]+)*$`)
)

// TestRegistry checks the rule values themselves: codes unique and well formed, names unique
// kebab-case, every rule documented with a bad and a good example and declaring its scope, fixtures
// present, and severities consistent with D1 (only the §11 conformance rules are errors).
func TestRegistry(t *testing.T) {
	codes := map[string]bool{}
	names := map[string]bool{}
	conformance := map[*Rule]bool{}
	for _, r := range conformanceRules() {
		conformance[r] = true
	}
	for _, r := range All() {
		for _, p := range ruleProblems(r, conformance[r]) {
			t.Errorf("%s: %s", r.Code, p)
		}
		if codes[r.Code] {
			t.Errorf("%s: code used twice", r.Code)
		}
		codes[r.Code] = true
		if names[r.Name] {
			t.Errorf("%s: name %q used twice", r.Code, r.Name)
		}
		names[r.Name] = true
	}
	for _, r := range familyRules() {
		if r.Spec == "" && r.Decision == "" && r.Severity != okf.Info {
			t.Errorf("%s: a project convention (no spec section) must be info (D1)", r.Code)
		}
	}
	for _, r := range fixtureRules() {
		if why, ok := fixtureless[r.Code]; ok {
			if why == "" {
				t.Errorf("%s: fixtureless without a reason", r.Code)
			}
			continue
		}
		for _, p := range []string{"bad", "good", "bad.out"} {
			if _, err := os.Stat(filepath.Join("testdata", "rules", r.Code, p)); err != nil {
				t.Errorf("%s: missing fixture %s", r.Code, p)
			}
		}
	}
	// No fixture folder without a rule: a removed rule's code is retired, not left behind.
	entries, err := os.ReadDir(filepath.Join("testdata", "rules"))
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if !codes[e.Name()] {
			t.Errorf("testdata/rules/%s: no rule has this code", e.Name())
		}
	}
}

// ruleProblems is what is wrong with one rule value of the registry: an ill-formed code or name,
// missing docs, no check, no declared scope, an undocumented fix, a severity D1 does not allow.
func ruleProblems(r *Rule, conformance bool) []string {
	var out []string
	if !codeRE.MatchString(r.Code) {
		out = append(out, "code must be OKF and three digits")
	}
	if !nameRE.MatchString(r.Name) {
		out = append(out, fmt.Sprintf("name %q is not kebab-case", r.Name))
	}
	if r.Title == "" || strings.HasSuffix(r.Title, ".") || strings.ToLower(r.Title[:1]) != r.Title[:1] {
		out = append(out, fmt.Sprintf("title %q must be a short lowercase summary without a trailing period", r.Title))
	}
	if !strings.Contains(r.Doc, "Bad") || !strings.Contains(r.Doc, "Good") {
		out = append(out, "doc must show a bad and a good example")
	}
	if r.Check == nil {
		out = append(out, "no check")
	}
	if r.Scope != ScopeConcept && r.Scope != ScopeBundle {
		out = append(out, "no scope declared: a rule of okf's is ScopeConcept or ScopeBundle (ScopeModel stops streaming)")
	}
	if r.Scope != ScopeBundle && len(r.reads) != 0 {
		out = append(out, "only a ScopeBundle rule reads facts (a per-concept rule reads its concept)")
	}
	facts := registryFacts()
	for _, f := range r.reads {
		out = append(out, factProblems(f, facts)...)
	}
	if r.Fix != nil && (r.Fix.Doc == "" || r.Fix.Make == nil) {
		out = append(out, "a fix must say what it does and make it")
	}
	if r.Severity == okf.Error && !conformance {
		out = append(out, "only the §11 conformance rules may be errors (D1)")
	}
	if conformance && r.Severity == okf.Error && r.Spec == "" {
		out = append(out, "an error must cite the spec section it enforces")
	}
	return out
}

// TestRuleProblemsCatchesBadRules: a rule registered without docs, title, check or scope, or
// reading a fact that is ill-formed or not the registry's, is caught (each bad value below alone
// must give a problem, and a good one none).
func TestRuleProblemsCatchesBadRules(t *testing.T) {
	good := Rule{Code: "OKF199", Name: "test-good", Severity: okf.Info, Scope: ScopeConcept, Title: "a test rule",
		Doc: "Bad:\n\n    x\n\nGood:\n\n    y", Check: func(*Pass) {}}
	if ps := ruleProblems(&good, false); len(ps) != 0 {
		t.Fatalf("the good rule has problems: %v", ps)
	}
	reader := good
	reader.Scope, reader.reads = ScopeBundle, []factRef{factTitle, &fact[bool]{name: "test-fact", doc: "a test fact", of: func(*factInput) bool { return true }}}
	if ps := ruleProblems(&reader, false); len(ps) != 0 {
		t.Fatalf("the good bundle rule, reading a registered fact and a new one, has problems: %v", ps)
	}
	bad := map[string]func(r *Rule){
		"no doc":            func(r *Rule) { r.Doc = "" },
		"doc without Good":  func(r *Rule) { r.Doc = "Bad: x" },
		"no title":          func(r *Rule) { r.Title = "" },
		"no check":          func(r *Rule) { r.Check = nil },
		"no scope":          func(r *Rule) { r.Scope = ScopeModel },
		"facts per concept": func(r *Rule) { r.reads = []factRef{factTitle} },
		"a nil fact":        func(r *Rule) { r.Scope, r.reads = ScopeBundle, []factRef{nil} },
		"a fact without name": func(r *Rule) {
			r.Scope, r.reads = ScopeBundle, []factRef{&fact[bool]{doc: "a test fact", of: func(*factInput) bool { return true }}}
		},
		"a fact without doc": func(r *Rule) {
			r.Scope, r.reads = ScopeBundle, []factRef{&fact[bool]{name: "test-fact", of: func(*factInput) bool { return true }}}
		},
		"a fact computing nothing": func(r *Rule) {
			r.Scope, r.reads = ScopeBundle, []factRef{&fact[bool]{name: "test-fact", doc: "a test fact"}}
		},
		"an unregistered fact under a registered name": func(r *Rule) {
			r.Scope, r.reads = ScopeBundle, []factRef{&fact[okf.Value]{name: "title", doc: "a second title", of: factTitle.of}}
		},
		"fix without doc": func(r *Rule) { r.Fix = &Fixer{Make: fixTags} },
		"error":           func(r *Rule) { r.Severity = okf.Error },
		"name":            func(r *Rule) { r.Name = "Test_Good" },
	}
	for what, spoil := range bad {
		r := good
		spoil(&r)
		if len(ruleProblems(&r, false)) == 0 {
			t.Errorf("a rule with %s passes the registry check", what)
		}
	}
}

// TestAllRulesOnEveryFixture runs the whole registry over every fixture bundle and the repository's
// test bundles: no rule may panic on another rule's odd input, every finding carries a registered
// code, and only conformance rules report errors (D1).
func TestAllRulesOnEveryFixture(t *testing.T) {
	dirs := bundleDirs(t, false)
	conformance := map[string]bool{}
	for _, r := range conformanceRules() {
		conformance[r.Code] = true
	}
	for _, dir := range dirs {
		b, err := okf.LoadDir(dir, okf.LoadOptions{})
		if err != nil {
			t.Fatalf("load %s: %v", dir, err)
		}
		for _, d := range Run(b, Options{Now: fixtureNow}) {
			if ByCode(d.Code) == nil {
				t.Errorf("%s: finding with an unregistered code: %s", dir, d)
			}
			if d.Severity == okf.Error && !conformance[d.Code] {
				t.Errorf("%s: a non-conformance rule reported an error (D1): %s", dir, d)
			}
		}
	}
}

// TestRuleFiles: a family rule is found by its name: it is the one rule of lint/rule_<name>.go
// (its kebab-case name with underscores), and every rule file holds one rule.
func TestRuleFiles(t *testing.T) {
	for _, r := range familyRules() {
		f := "rule_" + strings.ReplaceAll(r.Name, "-", "_") + ".go"
		src, err := os.ReadFile(f)
		if err != nil {
			t.Errorf("%s %s: %v", r.Code, r.Name, err)
			continue
		}
		if !strings.Contains(string(src), `Code: "`+r.Code+`", Name: "`+r.Name+`"`) {
			t.Errorf("%s does not define %s %s", f, r.Code, r.Name)
		}
	}
	files, err := filepath.Glob("rule_*.go")
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if n := strings.Count(string(src), "= &Rule{"); n != 1 {
			t.Errorf("%s holds %d rules, want one", f, n)
		}
	}
}

// bundleDirs lists the rule fixtures' bundles and the repository's test bundles, with all the
// test bundles and the corpus (when it is there) too: the inputs of the tests that run every rule.
func bundleDirs(t *testing.T, all bool) []string {
	t.Helper()
	patterns := []string{filepath.Join("testdata", "rules", "*", "*"), filepath.Join("..", "testdata", "bundles", "*", "*")}
	if all {
		patterns = append(patterns, filepath.Join("..", "testdata", "bundles", "*"), filepath.Join(corpusDir, "*"))
	}
	var dirs []string
	for _, pattern := range patterns {
		m, _ := filepath.Glob(pattern)
		for _, d := range m {
			if info, err := os.Stat(d); err == nil && info.IsDir() {
				dirs = append(dirs, d)
			}
		}
	}
	if len(dirs) < 100 {
		t.Fatalf("found only %d bundles", len(dirs))
	}
	return dirs
}

// factProblems returns what is wrong with the fact f a rule reads (nil, without a kebab-case name,
// a doc or an extractor), given the facts of the registry by name: a fact that is not the one the
// registry knows by its name is a second fact under that name.
func factProblems(f factRef, registry map[string]factRef) []string {
	if f == nil {
		return []string{"reads a nil fact"}
	}
	var out []string
	name := f.factName()
	if !nameRE.MatchString(name) {
		out = append(out, fmt.Sprintf("fact name %q is not kebab-case", name))
	}
	if f.factDoc() == "" {
		out = append(out, fmt.Sprintf("fact %q has no doc", name))
	}
	if !f.computes() {
		out = append(out, fmt.Sprintf("fact %q computes nothing (no of)", name))
	}
	if g, ok := registry[name]; ok && g != f {
		out = append(out, fmt.Sprintf("fact %q is not the registry's: another fact has that name", name))
	}
	return out
}

// registryFacts returns the facts the rules of the registry read, and the engine's, by name.
func registryFacts() map[string]factRef {
	out := map[string]factRef{}
	for _, f := range factsRead([]*Rule{{Scope: ScopeModel}}) {
		out[f.factName()] = f
	}
	return out
}

// TestFactNamesUnique: no two facts of the registry share a name.
func TestFactNamesUnique(t *testing.T) {
	facts := factsRead([]*Rule{{Scope: ScopeModel}})
	if len(facts) < 10 {
		t.Fatalf("only %d facts in the registry", len(facts))
	}
	for i := 1; i < len(facts); i++ {
		if facts[i].factName() == facts[i-1].factName() {
			t.Errorf("two facts named %q", facts[i].factName())
		}
	}
}
