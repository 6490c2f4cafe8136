package lint

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/okf-tools/okf/okf"
)

var runNow = time.Date(2026, 7, 1, 0, 0, 0, 0, time.UTC)

// runBundles writes two bundles under a temporary folder: a, whose a.md has tags as a string
// (OKF104, §4.1: tags is a list of strings; fixable), and b, whose b.md has no type (OKF004,
// §4.1: every concept has one). It returns their absolute roots.
func runBundles(t *testing.T) (a, b string) {
	t.Helper()
	dir := t.TempDir()
	files := map[string]string{
		"a/.okf.yaml": "# okf\n",
		"a/a.md":      "---\ntype: Metric\ntags: \"sales, orders\"\n---\n# A\n\nBody.\n",
		"b/.okf.yaml": "# okf\n",
		"b/b.md":      "---\ntitle: x\n---\n# B\n",
	}
	for p, s := range files {
		full := filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return filepath.Join(dir, "a"), filepath.Join(dir, "b")
}

// codesAt lists a report's findings as "path code", the paths as shown.
func codesAt(r *Report) []string {
	var out []string
	for _, d := range r.Diagnostics {
		out = append(out, r.path(d.Pos.Path)+" "+d.Code)
	}
	return out
}

func has(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// TestLintSeveralBundles: paths in two bundles make one report, each bundle linted against its own
// root (the paths shown are where the files are; the bundle paths stay for fingerprints).
func TestLintSeveralBundles(t *testing.T) {
	a, b := runBundles(t)
	res, err := Lint(context.Background(), Request{Paths: []string{a, b}, Now: runNow})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Bundles) != 2 || res.Bundles[0].Root != a || res.Bundles[1].Root != b {
		t.Fatalf("bundles %+v, want %s and %s", res.Bundles, a, b)
	}
	got := codesAt(res.Report)
	wantA, wantB := filepath.ToSlash(filepath.Join(a, "a.md"))+" OKF104", filepath.ToSlash(filepath.Join(b, "b.md"))+" OKF004"
	if !has(got, wantA) || !has(got, wantB) {
		t.Errorf("findings %q, want %q and %q among them", got, wantA, wantB)
	}
	if res.Report.Files != 2 {
		t.Errorf("files checked %d, want 2", res.Report.Files)
	}
	if bp := res.Report.bundlePath(filepath.ToSlash(filepath.Join(b, "b.md"))); bp != "b.md" {
		t.Errorf("bundle path of b.md is %q, want b.md", bp)
	}
}

// TestLintOneFile: a file named reports only its own findings, though its bundle is read whole.
func TestLintOneFile(t *testing.T) {
	a, _ := runBundles(t)
	if err := os.WriteFile(filepath.Join(a, "c.md"), []byte("---\ntitle: c\n---\n# C\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	res, err := Lint(context.Background(), Request{Paths: []string{filepath.Join(a, "c.md")}, Now: runNow})
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range res.Report.Diagnostics {
		if d.Pos.Path != "c.md" {
			t.Errorf("finding of a file not named: %v", d)
		}
	}
	if res.Report.Files != 1 {
		t.Errorf("files checked %d, want 1", res.Report.Files)
	}
}

// TestLintErrors: a configuration with problems is a *okf.ConfigError and a path in no bundle a
// *okf.NotBundleError (exit 2 in the CLI), before anything is reported.
func TestLintErrors(t *testing.T) {
	a, b := runBundles(t)
	if err := os.WriteFile(filepath.Join(b, ".okf.yaml"), []byte("rules:\n  no-such-rule: off\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	res, err := Lint(context.Background(), Request{Paths: []string{a, b}, Now: runNow})
	var ce *okf.ConfigError
	if !errors.As(err, &ce) || res.Report != nil {
		t.Errorf("bad .okf.yaml: %v (report %v), want a *okf.ConfigError and no report", err, res.Report)
	}
	_, err = Lint(context.Background(), Request{Paths: []string{filepath.Join(t.TempDir(), "none")}})
	var nb *okf.NotBundleError
	if !errors.As(err, &nb) {
		t.Errorf("missing path: %v, want a *okf.NotBundleError", err)
	}
	_, err = Lint(context.Background(), Request{Paths: []string{a, b}, Baseline: "x.json"})
	var ue *UsageError
	if !errors.As(err, &ue) {
		t.Errorf("a baseline for two bundles: %v, want a *UsageError", err)
	}
	_, err = Lint(context.Background(), Request{Paths: []string{a}, DryRun: true})
	if !errors.As(err, &ue) {
		t.Errorf("a dry run without fixing: %v, want a *UsageError", err)
	}
}

// TestLintStdin: standard input is linted as the file it names, in its bundle on disk: the file
// on disk is not what is read.
func TestLintStdin(t *testing.T) {
	a, _ := runBundles(t)
	res, err := Lint(context.Background(), Request{Stdin: strings.NewReader("---\ntitle: a\n---\n# A\n"), StdinName: filepath.Join(a, "a.md"), Now: runNow})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, d := range res.Report.Diagnostics {
		got = append(got, d.Pos.Path+" "+d.Code)
	}
	if !has(got, "a.md OKF004") || has(got, "a.md OKF104") {
		t.Errorf("findings %q, want a.md's OKF004 and not the file on disk's OKF104", got)
	}
	_, err = Lint(context.Background(), Request{Stdin: strings.NewReader(""), StdinName: filepath.Join(a, "a.md"), Fix: true})
	var ue *UsageError
	if !errors.As(err, &ue) {
		t.Errorf("fixing standard input: %v, want a *UsageError", err)
	}
}

// TestLintFix: a dry run previews the tags fix and writes nothing; a fix writes it, and the
// report is of what is left.
func TestLintFix(t *testing.T) {
	a, _ := runBundles(t)
	before, _ := os.ReadFile(filepath.Join(a, "a.md"))
	res, err := Lint(context.Background(), Request{Paths: []string{a}, Now: runNow, Fix: true, DryRun: true})
	if err != nil {
		t.Fatal(err)
	}
	if res.Report != nil || len(res.Bundles) != 1 || res.Bundles[0].Fix == nil || len(res.Bundles[0].Fix.Preview) != 1 || res.Bundles[0].Fix.Preview[0].Path != "a.md" {
		t.Fatalf("dry run: %+v, want one bundle previewing a.md and no report", res)
	}
	if now, _ := os.ReadFile(filepath.Join(a, "a.md")); string(now) != string(before) {
		t.Fatal("a dry run wrote a.md")
	}
	res, err = Lint(context.Background(), Request{Paths: []string{a}, Now: runNow, Fix: true})
	if err != nil {
		t.Fatal(err)
	}
	if f := res.Bundles[0].Fix; f.Fixed != 1 || len(f.Files) != 1 || f.Files[0] != "a.md" {
		t.Errorf("fix: %+v, want 1 finding fixed in a.md", f)
	}
	if has(codesAt(res.Report), filepath.ToSlash(filepath.Join(a, "a.md"))+" OKF104") {
		t.Error("the report still holds the finding fixed")
	}
	if now, _ := os.ReadFile(filepath.Join(a, "a.md")); !strings.Contains(string(now), "tags: [sales, orders]") {
		t.Errorf("a.md after the fix:\n%s", now)
	}
}

// TestLintFixReloadFails: when every fix is written and loading the fixed bundle again fails, the
// run fails (Err, and Lint's error) but the fixing did not (FixErr nil): Fix says what was fixed.
// A fixing that fails (a lock held) is FixErr too.
func TestLintFixReloadFails(t *testing.T) {
	a, _ := runBundles(t)
	moved := a + ".moved"
	testAfterFixes = func(root string) {
		if err := os.Rename(root, moved); err != nil {
			t.Fatal(err)
		}
	}
	defer func() { testAfterFixes = nil }()
	res, err := Lint(context.Background(), Request{Paths: []string{a}, Now: runNow, Fix: true})
	if err == nil {
		t.Fatal("no error after the bundle was moved away")
	}
	if len(res.Bundles) != 1 {
		t.Fatalf("%d bundles, want the one fixed", len(res.Bundles))
	}
	b := res.Bundles[0]
	if b.Err == nil || b.FixErr != nil || b.Fix == nil || b.Fix.Fixed != 1 {
		t.Errorf("Err %v, FixErr %v, Fix %+v: want the load's error, no fixing error, 1 finding fixed", b.Err, b.FixErr, b.Fix)
	}
	if now, _ := os.ReadFile(filepath.Join(moved, "a.md")); !strings.Contains(string(now), "tags: [sales, orders]") {
		t.Errorf("a.md after the fix:\n%s", now)
	}
	testAfterFixes = nil
	unlock, err := okf.LockBundle(moved, "test")
	if err != nil {
		t.Fatal(err)
	}
	defer unlock()
	res, err = Lint(context.Background(), Request{Paths: []string{moved}, Now: runNow, Fix: true})
	if err == nil || len(res.Bundles) != 1 || res.Bundles[0].FixErr == nil || !errors.Is(res.Bundles[0].FixErr, err) {
		t.Errorf("with the bundle locked: %v, %+v; want the lock's error as FixErr", err, res.Bundles)
	}
}

// TestLintBaseline: a baseline written from a run, then read, leaves nothing to report.
func TestLintBaseline(t *testing.T) {
	a, _ := runBundles(t)
	res, err := Lint(context.Background(), Request{Paths: []string{a}, Now: runNow, WriteBaseline: true})
	if err != nil {
		t.Fatal(err)
	}
	if want := filepath.ToSlash(filepath.Join(a, DefaultBaseline)); res.BaselineWritten != want || res.Recorded == 0 || res.Report != nil {
		t.Fatalf("wrote %q with %d findings (report %v), want %q, some, and no report", res.BaselineWritten, res.Recorded, res.Report, want)
	}
	res, err = Lint(context.Background(), Request{Paths: []string{a}, Now: runNow, Baseline: filepath.Join(a, DefaultBaseline)})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Report.Diagnostics) != 0 {
		t.Errorf("after the baseline: %v, want none", res.Report.Diagnostics)
	}
}

// TestLintShowConfig: the configuration in force is read for each bundle, nothing linted.
func TestLintShowConfig(t *testing.T) {
	a, b := runBundles(t)
	res, err := Lint(context.Background(), Request{Paths: []string{a, b}, ShowConfig: true, MaxFileSize: 1 << 20})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Configs) != 2 || res.Configs[1].Bundle != filepath.ToSlash(b) || res.Configs[0].MaxFileSize != 1<<20 || res.Report != nil {
		t.Errorf("configs %+v (report %v), want a's and b's with the 1 MiB limit, no report", res.Configs, res.Report)
	}
}

// TestLintTestdataBundle: the project's valid bundle, linted through the one call, gives what
// the engine gives on the bundle loaded by hand.
func TestLintTestdataBundle(t *testing.T) {
	dir := filepath.Join("..", "testdata", "bundles", "valid")
	res, err := Lint(context.Background(), Request{Paths: []string{dir}, Now: runNow})
	if err != nil {
		t.Fatal(err)
	}
	b, err := okf.LoadDir(dir, okf.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	want := Run(b, Options{Now: runNow})
	if len(want) == 0 || len(res.Report.Diagnostics) != len(want) {
		t.Fatalf("%d findings, want %d", len(res.Report.Diagnostics), len(want))
	}
	for i := range want {
		if res.Report.Diagnostics[i].String() != want[i].String() {
			t.Errorf("finding %d: %v, want %v", i, res.Report.Diagnostics[i], want[i])
		}
	}
}
