package lint

import (
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"testing/fstest"
	"time"
	"unsafe"

	"github.com/okf-tools/okf/internal/synth"
	"github.com/okf-tools/okf/okf"
)

// lintBoth lints the bundle fsys holds twice, as okf lint does (its .okf.yaml, the schema check
// while loading): with Run over the whole model, and with a Stream. Both get opts.
func lintBoth(t *testing.T, fsys fs.FS, opts Options) (run, stream []okf.Diagnostic) {
	t.Helper()
	op, err := okf.OpenFS(fsys, 0)
	if err != nil {
		t.Fatalf("open: %v", err)
	}
	r := op.FileSystem
	cfg, _, err := LoadConfig(op, "")
	if err != nil {
		t.Fatalf("config: %v", err)
	}
	opts.Config = cfg
	load := func(o Options, onConcept func(*okf.Bundle, *okf.Concept)) *okf.Bundle {
		lo := okf.LoadOptions{OnConcept: onConcept}
		if cfg != nil {
			lo.Ignore = cfg.Ignore
		}
		if o.Schemas != nil {
			lo.OnFrontmatter = o.Schemas.OnFrontmatter
		}
		b, err := okf.Load(r, lo)
		if err != nil {
			t.Fatalf("load: %v", err)
		}
		return b
	}
	o := opts
	o.Schemas = NewSchemaCheck(r, cfg)
	run = Run(load(o, nil), o)
	o = opts
	o.Schemas = NewSchemaCheck(r, cfg)
	s := NewStream(o)
	stream = s.Finish(load(o, s.OnConcept))
	return run, stream
}

func sameFindings(t *testing.T, name string, run, stream []okf.Diagnostic) {
	t.Helper()
	if reflect.DeepEqual(run, stream) {
		return
	}
	t.Errorf("%s: a Stream found %d findings, Run %d", name, len(stream), len(run))
	for i := 0; i < max(len(run), len(stream)); i++ {
		var a, b string
		if i < len(run) {
			a = fmt.Sprintf("%v %s end %v", run[i].Severity, run[i], run[i].End)
		}
		if i < len(stream) {
			b = fmt.Sprintf("%v %s end %v", stream[i].Severity, stream[i], stream[i].End)
		}
		if a != b {
			t.Errorf("first difference at %d:\n  run:    %s\n  stream: %s", i, a, b)
			return
		}
	}
}

var streamNow = time.Date(2026, 7, 1, 0, 0, 0, 0, time.UTC)

// TestStreamMatchesRun lints every fixture, every test bundle, the corpus when it is there and a
// generated bundle both ways: the findings are the same, in the same order, to the byte.
func TestStreamMatchesRun(t *testing.T) {
	dirs := bundleDirs(t, true)
	syn := t.TempDir()
	if _, err := synth.Write(syn, synth.Options{Concepts: 300, PerDir: 40, BodyBytes: 800}); err != nil {
		t.Fatal(err)
	}
	dirs = append(dirs, syn)
	for _, dir := range dirs {
		run, stream := lintBoth(t, os.DirFS(dir), Options{Now: streamNow})
		sameFindings(t, dir, run, stream)
	}
}

// TestStreamOptions: the options that apply after the rules (files, filter, a rule subset, the
// window) give the same findings both ways.
func TestStreamOptions(t *testing.T) {
	fsys := streamBundle()
	for name, opts := range map[string]Options{
		"files":    {Now: streamNow, Files: []string{"a.md", "index.md"}},
		"filter":   {Now: streamNow, Filter: func(p string) bool { return strings.HasPrefix(p, "sub/") }},
		"rules":    {Now: streamNow, Rules: []*Rule{LinkBroken, TitleDuplicate, UnusedSuppression, SchemaMismatch}},
		"window":   {Now: streamNow, ExpiringWithin: 400 * 24 * time.Hour},
		"nowindow": {Now: streamNow, ExpiringWithin: NoExpiringWindow},
		"workers":  {Now: streamNow, Workers: 1},
	} {
		run, stream := lintBoth(t, fsys, opts)
		if len(run) == 0 {
			t.Fatalf("%s: no finding: the case tests nothing", name)
		}
		sameFindings(t, name, run, stream)
	}
}

// TestStreamBound: a concept with more findings of one rule than MaxFindingsPerFile, of a rule run
// per concept (link-broken) and of one run over the whole bundle (link-to-deprecated), is cut at
// the same finding both ways, with the same count of the rest.
func TestStreamBound(t *testing.T) {
	fsys := streamBundle()
	var body strings.Builder
	for i := range MaxFindingsPerFile + 7 {
		fmt.Fprintf(&body, "[x](missing%d.md) [old](old.md)\n", i)
	}
	fsys["many.md"] = &fstest.MapFile{Data: []byte("---\ntype: Note\ntitle: Many\ndescription: Many links.\n---\n# Many\n\n" + body.String())}
	run, stream := lintBoth(t, fsys, Options{Now: streamNow})
	sameFindings(t, "bound", run, stream)
	counted := map[string]bool{}
	for _, d := range stream {
		if d.Pos.Path == "many.md" && strings.Contains(d.Message, "more findings of this rule") {
			counted[d.Code] = true
		}
	}
	if !counted[LinkBroken.Code] || !counted[LinkToDeprecated.Code] {
		t.Errorf("the rest is not counted for both rules: %v", counted)
	}
}

// TestStreamDrops: after a Stream's load, no concept keeps its model (only the facts the
// cross-file rules read are kept, apart from the bundle), and the findings are still all there.
func TestStreamDrops(t *testing.T) {
	fsys := streamBundle()
	s := NewStream(Options{Now: streamNow})
	b, err := okf.Load(fsys, okf.LoadOptions{OnConcept: s.OnConcept})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range b.Concepts {
		fm := c.Frontmatter
		if len(fm.Keys) != 0 || fm.Title.Present() || len(c.Body.Links) != 0 || len(c.Body.Headings) != 0 {
			t.Errorf("%s keeps its model: keys %v, title %v, links %v", c.Path, fm.Keys, fm.Title, c.Body.Links)
		}
	}
	if !b.ConceptAt("a.md").Frontmatter.Present || b.ConceptAt("nofm.md").Frontmatter.Present {
		t.Error("a dropped concept no longer says whether it had a frontmatter")
	}
	ds := s.Finish(b)
	for _, code := range []string{TitleDuplicate.Code, LinkToDeprecated.Code, LinkAnchorMissing.Code, Orphan.Code, ConceptNotIndexed.Code, LegacyTimestamp.Code, UnusedSuppression.Code, LinkBroken.Code, ConfigUnknownRule.Code} {
		if !hasCode(ds, code) {
			t.Errorf("no %s finding on the dropped bundle", code)
		}
	}
}

func hasCode(ds []okf.Diagnostic, code string) bool {
	for _, d := range ds {
		if d.Code == code {
			return true
		}
	}
	return false
}

// streamBundle is a bundle where every kind of rule finds something: per-concept rules, the rules
// that look across files, suppressions, the configuration (a rule off, an override, a type schema).
func streamBundle() fstest.MapFS {
	f := func(s string) *fstest.MapFile { return &fstest.MapFile{Data: []byte(s)} }
	return fstest.MapFS{
		".okf.yaml":           f("rules:\n  OKF102: off\noverrides:\n  - paths: [sub/**]\n    rules:\n      OKF101: warning\nschemas:\n  Metric: schemas/metric.json\n"),
		"schemas/metric.json": f(`{"type": "object", "required": ["unit"]}`),
		"index.md":            f("---\nokf_version: \"0.2\"\n---\n# Bundle\n\n## All\n\n* [A](a.md) - The A.\n* [Gone](gone.md) - Not there.\n"),
		"log.md":              f("# Log\n\n## 2026-06-01\n\n* did\n\n## 2026-05-01\n\n* did\n\n## 2026-06-01\n\n* again\n"),
		"a.md": f("---\ntype: Metric\ntitle: Same\ndescription: The a. Two sentences here.\ntags: [x, 3]\n" +
			"generated: {by: agent:x, at: 2026-01-01}\nverified: [{by: human:y, at: 2026-02-01T00:00:00Z}]\n" +
			"sources:\n  - id: s1\n    resource: https://x.example\n  - id: s1\n    resource: /missing.md\nstatus: deprecatd\nstale_after: 2026-06-01T00:00:00Z\n---\n" +
			"# A\n\n<!-- okf-lint-disable OKF601 -->\n<!-- okf-lint-disabel OKF101 -->\nSee [b](sub/b.md#nowhere), [me](a.md), [top](/sub/b.md), [gone](nothing.md) and [^s2].\n\n" +
			"```sql\nselect 1\n```\n\n## Citations\n\n1. a book\n"),
		"sub/b.md": f("---\ntype: Note\ntitle: same\n---\n# B\n\n## Real heading\n\n[a](../a.md#a) [dep](../old.md) [x](#real-heading) [y](#nope)\n" +
			"<!-- okf-lint-disable-next-line OKF604 -->\n[self](b.md)\n<!-- okf-lint-disable OKF999 -->\n"),
		"old.md":    f("---\ntype: Note\ntitle: Old\ndescription: Deprecated.\nstatus: deprecated\n---\n# Old\n\n<!-- okf-lint-disable OKF110 -->\n"),
		"legacy.md": f("---\ntype: Note\ntitle: Legacy\ntimestamp: 2025-01-01\n---\n# Legacy\n\n# Citations\n\n- one\n"),
		"nofm.md":   f("# No frontmatter\n\n[a](a.md)\n"),
		"bad.md":    f("---\ntype: [1]\ntitle: x: y\n---\n"),
		"latin.md":  f("---\ntype: Note\ntitle: caf\xe9\n---\n"),
		"calc.md": f("---\ntype: Attested Computation\ntitle: Calc\ndescription: A computation.\nruntime: sqlite\n" +
			"parameters:\n  - name: day\n    type: date\ncomputation: queries/calc.sql\nexecutor: {resource: /nowhere.md}\n---\n# Calc\n"),
		"queries/calc.sql": f("select :month\n"),
		"sub/index.md":     f("# Sub\n\n* [B](b.md) - The b.\n"),
		"sub/orphan.md":    f("---\ntype: Note\ntitle: Orphan\ndescription: Nobody links here.\n---\n# Orphan\n\n[x](nowhere.md)\n"),
	}
}

// FuzzStreamMatchesRun: on any bundle, a Stream finds what Run finds. The input is the bundle's
// files, each "name\x00content" and separated by "\x01"; the seeds are streamBundle's files.
func FuzzStreamMatchesRun(f *testing.F) {
	var seed strings.Builder
	for name, file := range streamBundle() {
		seed.WriteString(name + "\x00" + string(file.Data) + "\x01")
	}
	f.Add(seed.String())
	f.Add("a.md\x00---\ntype: x\ntitle: T\n---\n[b](b.md#h)\x01b.md\x00---\ntype: y\ntitle: t\nstatus: deprecated\n---\n# H\n\x01index.md\x00* [a](a.md)\n")
	f.Fuzz(func(t *testing.T, data string) {
		fsys := fstest.MapFS{}
		for _, part := range strings.Split(data, "\x01") {
			name, content, ok := strings.Cut(part, "\x00")
			name = strings.Trim(name, "/")
			if !ok || !fs.ValidPath(name) || name == "." || len(fsys) >= 40 {
				continue
			}
			fsys[name] = &fstest.MapFile{Data: []byte(content)}
		}
		for p := range fsys {
			if _, ok := fsys[path.Dir(p)]; ok {
				return // a file that is also a folder: not a file system
			}
		}
		if op, err := okf.OpenFS(fsys, 0); err != nil {
			return // refused before any rule runs (a .okf.yml): nothing to compare
		} else if _, _, err := LoadConfig(op, ""); err != nil {
			return // a configuration error stops the run (exit 2): nothing to compare
		}
		run, stream := lintBoth(t, fsys, Options{Now: streamNow})
		sameFindings(t, "fuzz", run, stream)
	})
}

// countOpens is a file system that counts the opens of one file.
type countOpens struct {
	fs.FS
	name string
	n    *atomic.Int64
}

func (c countOpens) Open(name string) (fs.File, error) {
	if name == c.name {
		c.n.Add(1)
	}
	return c.FS.Open(name)
}

// TestStreamSchemaOnce: a Stream without a SchemaCheck (Options.Schemas is optional) reads the
// configured schema file as often as Run does, not once per concept.
func TestStreamSchemaOnce(t *testing.T) {
	m := fstest.MapFS{
		".okf.yaml":           {Data: []byte("schemas:\n  Metric: schemas/metric.json\n")},
		"schemas/metric.json": {Data: []byte(`{"type": "object", "required": ["unit"]}`)},
	}
	for i := range 200 {
		m[fmt.Sprintf("c%d.md", i)] = &fstest.MapFile{Data: []byte("---\ntype: Metric\ntitle: T\n---\n# T\n")}
	}
	opens := map[bool]int64{}
	findings := map[bool][]okf.Diagnostic{}
	for _, stream := range []bool{false, true} {
		var n atomic.Int64
		op, err := okf.OpenFS(countOpens{m, "schemas/metric.json", &n}, 0)
		if err != nil {
			t.Fatal(err)
		}
		r := op.FileSystem
		cfg, _, err := LoadConfig(op, "")
		if err != nil {
			t.Fatal(err)
		}
		opts := Options{Now: streamNow, Config: cfg}
		if stream {
			s := NewStream(opts)
			b, _ := okf.Load(r, okf.LoadOptions{OnConcept: s.OnConcept})
			findings[stream] = s.Finish(b)
		} else {
			b, _ := okf.Load(r, okf.LoadOptions{})
			findings[stream] = Run(b, opts)
		}
		opens[stream] = n.Load()
	}
	if opens[true] > opens[false] {
		t.Errorf("the schema file was opened %d times by a Stream, %d by Run", opens[true], opens[false])
	}
	if n := len(findings[false]); n < 200 {
		t.Fatalf("Run found %d findings, want one schema finding per concept at least", n)
	}
	sameFindings(t, "schema", findings[false], findings[true])
}

// TestStreamPanic: a per-concept rule that panics (a bug in okf) is one finding, as under Run, not
// one per concept.
func TestStreamPanic(t *testing.T) {
	saved := TitleMissing.Check
	defer func() { TitleMissing.Check = saved }()
	TitleMissing.Check = func(p *Pass) {
		withFrontmatter(p.Bundle, func(c *okf.Concept, fm *okf.Frontmatter) {
			var xs []int
			_ = xs[len(c.Path)] // a different message on each concept
		})
	}
	m := fstest.MapFS{}
	for _, n := range []string{"a", "bb", "ccc", "dddd"} {
		m[n+".md"] = &fstest.MapFile{Data: []byte("---\ntype: Note\n---\n# X\n")}
	}
	run, stream := lintBoth(t, m, Options{Now: streamNow, Rules: []*Rule{TitleMissing}})
	if len(run) != 1 || len(stream) != 1 || !strings.Contains(stream[0].Message, "failed") {
		t.Errorf("a panicking rule gave %d findings under Run and %d under a Stream, want one each: %v", len(run), len(stream), stream)
	}
}

// TestStreamOwnRule: a rule okf does not define (Options.Rules takes any) may read any of the
// model: a Stream then keeps the model and gives what Run gives.
func TestStreamOwnRule(t *testing.T) {
	tagged := &Rule{Code: "X001", Name: "x-tagged", Severity: okf.Info, Check: func(p *Pass) {
		withFrontmatter(p.Bundle, func(c *okf.Concept, fm *okf.Frontmatter) {
			for _, it := range fm.Tags.Items {
				p.Reportf(at(it, fileStart(c)), "tag %s", it.Raw)
			}
		})
	}}
	m := fstest.MapFS{"a.md": {Data: []byte("---\ntype: Note\ntitle: A\ntags: [x, y]\n---\n# A\n")}}
	run, stream := lintBoth(t, m, Options{Now: streamNow, Rules: []*Rule{tagged, TitleMissing, TitleDuplicate}})
	if len(run) != 2 {
		t.Fatalf("Run found %d findings, want 2", len(run))
	}
	sameFindings(t, "own rule", run, stream)
}

// TestRunModelHoles: Run on a bundle a library caller changed (a concept without a Body, another
// without a Frontmatter) reports the rules that fail on them and never panics itself.
func TestRunModelHoles(t *testing.T) {
	b, err := okf.Load(fstest.MapFS{
		"a.md":     {Data: []byte("---\ntype: R\ntitle: A\n---\n# A\n\n<!-- okf-lint-disable OKF102 -->\n")},
		"b.md":     {Data: []byte("---\ntype: R\ntitle: B\n---\n# B\n")},
		"index.md": {Data: []byte("# C\n\n* [A](a.md) - The a.\n")},
	}, okf.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	b.ConceptAt("a.md").Body = nil
	b.ConceptAt("b.md").Frontmatter = nil
	ds := Run(b, Options{Now: streamNow})
	failed := 0
	for _, d := range ds {
		if strings.Contains(d.Message, "failed") {
			failed++
		}
	}
	if failed == 0 {
		t.Errorf("no rule reported failing on the holes: %v", ds)
	}
}

// TestStreamUnseen: a Stream finishing a bundle loaded without its OnConcept finds what Run finds.
func TestStreamUnseen(t *testing.T) {
	fsys := streamBundle()
	load := func() *okf.Bundle {
		b, err := okf.Load(fsys, okf.LoadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	run := Run(load(), Options{Now: streamNow})
	stream := NewStream(Options{Now: streamNow}).Finish(load())
	if !hasCode(run, Orphan.Code) || !hasCode(run, TitleDuplicate.Code) {
		t.Fatalf("the case tests nothing: %v", run)
	}
	sameFindings(t, "unseen", run, stream)
}

// TestFactsDirectiveCopied: a directive kept in a concept's facts is a copy, not a slice of its
// comment block's text (which a Stream would otherwise keep whole until the end of the run).
func TestFactsDirectiveCopied(t *testing.T) {
	c, _ := okf.ParseConcept("a.md", []byte("---\ntype: R\n---\n<!-- "+strings.Repeat("x", 1000)+" --> <!-- okf-lint-disable OKF606 -->\n"))
	var dir okf.Comment
	for _, cm := range c.Body.Comments {
		if strings.HasPrefix(cm.Text, directivePrefix) {
			dir = cm
		}
	}
	if dir.Text == "" {
		t.Fatalf("no directive parsed: %+v", c.Body.Comments)
	}
	dirs := factDirectives.of(&factInput{b: &okf.Bundle{}, c: c, fm: c.Frontmatter, body: c.Body})
	if len(dirs) != 1 || dirs[0].Text != dir.Text {
		t.Fatalf("directives %+v, want %q", dirs, dir.Text)
	}
	if unsafe.StringData(dirs[0].Text) == unsafe.StringData(dir.Text) {
		t.Error("the directive's text shares the comment block's memory")
	}
}

// TestStreamFixes: the fixes SARIF carries are the same from a Stream's bundle, whose concepts are
// dropped (the fixes read the files they fix again), as from the bundle held whole.
func TestStreamFixes(t *testing.T) {
	var dirs []string
	for _, code := range []string{"OKF013", "OKF104", "OKF107", "OKF201", "OKF202", "OKF602", "OKF802"} {
		dirs = append(dirs, filepath.Join("testdata", "rules", code, "bad"))
	}
	fixed := 0
	check := func(name string, fsys fs.FS) {
		r := okf.NewFileSystem(fsys, 0)
		whole, err := okf.Load(r, okf.LoadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		run := Run(whole, Options{Now: streamNow})
		s := NewStream(Options{Now: streamNow})
		dropped, err := okf.Load(r, okf.LoadOptions{OnConcept: s.OnConcept})
		if err != nil {
			t.Fatal(err)
		}
		stream := s.Finish(dropped)
		sameFindings(t, name, run, stream)
		a, b := Fixes(whole, run), Fixes(dropped, stream)
		if !reflect.DeepEqual(a, b) {
			t.Errorf("%s: %d fixes from the whole bundle, %d from a Stream's: %v\n%v", name, len(a), len(b), a, b)
		}
		fixed += len(a)
	}
	for _, dir := range dirs {
		check(dir, os.DirFS(dir))
	}
	check("streamBundle", streamBundle())
	if fixed < 7 {
		t.Fatalf("only %d fixes: the case tests little", fixed)
	}
}

// TestPerConceptPanicIsDeterministic: a per-concept rule that panics with a different value on each
// concept is reported with the same finding on every run, under Run and under a Stream, however the
// concepts are spread over the workers: the failure on the first concept by path it fails on.
func TestPerConceptPanicIsDeterministic(t *testing.T) {
	boom := &Rule{Code: "OKF0T5", Name: "test-boom-each", Severity: okf.Info, Scope: ScopeConcept, Check: func(p *Pass) {
		for _, c := range p.Bundle.Concepts {
			if c.Path >= "c" {
				panic("failed on " + c.Path)
			}
			p.Reportf(okf.Position{Path: c.Path, Line: 1, Col: 1}, "checked")
		}
	}}
	m := fstest.MapFS{}
	for i := range 400 {
		for _, prefix := range []string{"a", "c", "d"} {
			m[fmt.Sprintf("%s%03d.md", prefix, i)] = &fstest.MapFile{Data: []byte("---\ntype: Note\n---\n# X\n")}
		}
	}
	opts := Options{Now: streamNow, Rules: []*Rule{boom}, Workers: 8}
	const want = "rule OKF0T5 (test-boom-each) failed: failed on c000.md; this is a bug in okf, please report it"
	for i := range 30 {
		run, stream := lintBoth(t, m, opts)
		for what, got := range map[string][]okf.Diagnostic{"Run": run, "a Stream": stream} {
			if len(got) != 1 || got[0].Message != want || got[0].Pos != (okf.Position{}) {
				t.Fatalf("run %d: %s gave %v, want the one finding %q", i, what, got, want)
			}
		}
	}
}

// TestStreamConceptTwice: a library caller's hook that hands a concept to OnConcept twice (a
// retry) gets its last facts, as when they were kept in a map, not a panic in Finish (every column
// holds one row a call, the table one row a concept).
func TestStreamConceptTwice(t *testing.T) {
	s := NewStream(Options{Now: streamNow})
	var mu sync.Mutex
	seen := 0
	b, err := okf.Load(streamBundle(), okf.LoadOptions{OnConcept: func(one *okf.Bundle, c *okf.Concept) {
		mu.Lock()
		seen++
		first := seen == 1
		mu.Unlock()
		if first {
			s.OnConcept(one, c)
		}
		s.OnConcept(one, c)
	}})
	if err != nil {
		t.Fatal(err)
	}
	defer func() {
		if v := recover(); v != nil {
			t.Fatalf("Finish panicked: %v", v)
		}
	}()
	s.Finish(b)
}
