package okf

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
)

// sparse makes a file of n bytes that takes no disk (a hole), as a hostile pull request's huge file.
func sparse(t testing.TB, name string, n int64) {
	t.Helper()
	f, err := os.Create(name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := f.Truncate(n); err != nil {
		t.Fatal(err)
	}
}

func writeFile(t testing.TB, name, text string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(name, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestLoadSkipsOversizeFiles: a file over the limit is one OKF010 finding naming it and the limit,
// and the other files load.
func TestLoadSkipsOversizeFiles(t *testing.T) {
	root := t.TempDir()
	writeFile(t, filepath.Join(root, "ok.md"), "---\ntype: Reference\n---\n")
	writeFile(t, filepath.Join(root, "big.md"), "---\ntype: Reference\n---\n"+strings.Repeat("x", 2000))
	b, err := LoadDir(root, LoadOptions{MaxFileSize: 1024})
	if err != nil {
		t.Fatal(err)
	}
	if len(b.Diagnostics) != 1 {
		t.Fatalf("diagnostics %v", b.Diagnostics)
	}
	d := b.Diagnostics[0]
	if d.Code != CodeUnreadable || d.Pos.Path != "big.md" || d.Severity != Error ||
		!strings.Contains(d.Message, "larger than the 1 KiB size limit") || !strings.Contains(d.Message, "--max-file-size") {
		t.Errorf("finding %+v", d)
	}
	if b.Concept("ok") == nil || !b.Concept("ok").Conformant() {
		t.Error("the small concept did not load")
	}
	// The default limit reads it.
	b, err = LoadDir(root, LoadOptions{})
	if err != nil || len(b.Diagnostics) != 0 {
		t.Errorf("default limit: %v %v", err, b.Diagnostics)
	}
	// Re-reading goes through the same limit.
	if _, err := NewFileSystem(b.FS, 100).ReadFile("big.md"); err == nil {
		t.Error("a re-read ignored the limit")
	}
}

// TestLoadHugeFileMemory: a bundle holding one 200 MB file (sparse) loads without reading it:
// the bytes allocated while loading stay far below the file's size. The bound is generous (32 MiB,
// the default limit four times over); reading the file would allocate at least 200 MiB.
func TestLoadHugeFileMemory(t *testing.T) {
	root := t.TempDir()
	writeFile(t, filepath.Join(root, "ok.md"), "---\ntype: Reference\n---\n")
	sparse(t, filepath.Join(root, "huge.md"), 200<<20)
	runtime.GC()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	b, err := LoadDir(root, LoadOptions{})
	runtime.ReadMemStats(&after)
	if err != nil {
		t.Fatal(err)
	}
	if grew := after.TotalAlloc - before.TotalAlloc; grew > 32<<20 {
		t.Errorf("loading allocated %d MiB for a bundle with a 200 MB file", grew>>20)
	}
	if len(b.Diagnostics) != 1 || b.Diagnostics[0].Pos.Path != "huge.md" || !strings.Contains(b.Diagnostics[0].Message, "(200 MiB)") {
		t.Errorf("diagnostics %v", b.Diagnostics)
	}
}

// BenchmarkLoadHugeFile reports the bytes one load of a bundle with a 200 MB file allocates
// (go test -bench LoadHugeFile -benchmem ./okf).
func BenchmarkLoadHugeFile(b *testing.B) {
	root := b.TempDir()
	writeFile(b, filepath.Join(root, "ok.md"), "---\ntype: Reference\n---\n")
	for _, n := range []string{"a", "b", "c", "d"} {
		sparse(b, filepath.Join(root, n+".md"), 200<<20)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := LoadDir(root, LoadOptions{}); err != nil {
			b.Fatal(err)
		}
	}
}

// TestLoadOkfignoreOutside: an .okfignore linked outside the bundle is not read (its patterns do
// not apply) and is reported.
func TestLoadOkfignoreOutside(t *testing.T) {
	outside := t.TempDir()
	writeFile(t, filepath.Join(outside, "ig"), "*.md\n")
	root := t.TempDir()
	writeFile(t, filepath.Join(root, "a.md"), "---\ntype: R\n---\n")
	if err := os.Symlink(filepath.Join(outside, "ig"), filepath.Join(root, ".okfignore")); err != nil {
		t.Skip("symlinks not supported:", err)
	}
	b, err := LoadDir(root, LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(b.Concepts) != 1 || len(b.Ignored) != 0 {
		t.Errorf("the outside .okfignore applied: concepts %d ignored %v", len(b.Concepts), b.Ignored)
	}
	if len(b.Diagnostics) != 1 || b.Diagnostics[0].Pos.Path != ".okfignore" || b.Diagnostics[0].Code != CodeUnreadable ||
		!strings.Contains(b.Diagnostics[0].Message, "outside the bundle") {
		t.Errorf("diagnostics %v", b.Diagnostics)
	}
	if _, err := b.ReadFile(".okfignore"); err == nil {
		t.Error("Bundle.ReadFile followed the link outside")
	}
}

// TestLoadDeepNesting: folders nested past MaxDepth are one OKF010 finding at the first folder too
// deep, and nothing below it is read. Without the bound, os.Root resolves every open one level at a
// time, so 3,000 files 2,000 folders deep (a 4 KB path, as git allows) took minutes of system time.
func TestLoadDeepNesting(t *testing.T) {
	root := t.TempDir()
	deep := func(n int) string { return strings.TrimSuffix(strings.Repeat("d/", n), "/") }
	concept := "---\ntype: Reference\ntitle: T\n---\n# T\n"
	writeFile(t, filepath.Join(root, deep(4), "x.md"), concept)
	writeFile(t, filepath.Join(root, deep(32), "edge.md"), concept)
	writeFile(t, filepath.Join(root, deep(40), "deep.md"), concept)
	b, err := LoadDir(root, LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if b.Concept(deep(4)+"/x") == nil || b.Concept(deep(32)+"/edge") == nil {
		t.Error("a concept within the bound did not load")
	}
	if b.Concept(deep(40)+"/deep") != nil {
		t.Error("a concept 40 folders deep was read")
	}
	if len(b.Diagnostics) != 1 {
		t.Fatalf("diagnostics %v", b.Diagnostics)
	}
	d := b.Diagnostics[0]
	want := "not read: a folder nested more than 32 levels deep; nothing below it is read"
	if d.Code != CodeUnreadable || d.Pos.Path != deep(33) || d.Message != want {
		t.Errorf("finding %s %s %q, want %s at %s: %q", d.Code, d.Pos.Path, d.Message, CodeUnreadable, deep(33), want)
	}
}

// TestLoadParsesOneLargeFileAtATime: parsing builds a syntax tree many times a file's size (an
// 8 MiB line of links: about 500 MB), so the loader's workers together parse at most ParseBudget
// bytes at once; a file larger than the budget is parsed alone. Four such files parsed by four
// workers at once peaked at 2.9 GB.
func TestLoadParsesOneLargeFileAtATime(t *testing.T) {
	root := t.TempDir()
	big := "---\ntype: Reference\ntitle: T\n---\n# T\n" + strings.Repeat("[a](b.md) ", ParseBudget/10+1)
	for _, n := range []string{"a.md", "b.md", "c.md", "d.md"} {
		writeFile(t, filepath.Join(root, n), big)
	}
	for i := range 20 {
		writeFile(t, filepath.Join(root, "small", string(rune('a'+i))+".md"), "---\ntype: Reference\n---\n# S\n")
	}
	var mu sync.Mutex
	var now, peak, largest int64
	parseHook = func(n int64) {
		mu.Lock()
		defer mu.Unlock()
		now += n
		peak = max(peak, now)
		largest = max(largest, n)
	}
	defer func() { parseHook = nil }()
	if _, err := LoadDir(root, LoadOptions{Workers: 4}); err != nil {
		t.Fatal(err)
	}
	if largest <= ParseBudget {
		t.Fatalf("test files too small: %d bytes", largest)
	}
	if peak > largest {
		t.Errorf("%d bytes parsed at once, want at most the largest file alone (%d)", peak, largest)
	}
}

// TestLoadOkfignoreBounded: every pattern is matched against every path, so a 20,000-line
// .okfignore over 5,000 files took a minute. Only the first MaxIgnorePatterns patterns apply, a
// pattern over MaxIgnorePatternLen bytes is dropped, and the rest is reported (OKF010): here the
// long line, the 11 patterns past the 512th and late.md, 13 in all.
func TestLoadOkfignoreBounded(t *testing.T) {
	root := t.TempDir()
	var ig strings.Builder
	ig.WriteString("ignored.md\n" + strings.Repeat("x/", MaxIgnorePatternLen) + "\n")
	for i := range MaxIgnorePatterns + 10 {
		fmt.Fprintf(&ig, "never%d.md\n", i)
	}
	ig.WriteString("late.md\n")
	writeFile(t, filepath.Join(root, ".okfignore"), ig.String())
	for _, n := range []string{"ignored.md", "late.md", "kept.md"} {
		writeFile(t, filepath.Join(root, n), "---\ntype: Reference\ntitle: T\n---\n# T\n")
	}
	b, err := LoadDir(root, LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if b.Concept("ignored") != nil || b.Concept("late") == nil || b.Concept("kept") == nil {
		t.Errorf("ignored.md loaded %v, late.md %v, kept.md %v: want only the first patterns applied",
			b.Concept("ignored") != nil, b.Concept("late") != nil, b.Concept("kept") != nil)
	}
	want := fmt.Sprintf("only the first %d patterns apply: 13 more lines (or patterns over %d bytes) are not applied", MaxIgnorePatterns, MaxIgnorePatternLen)
	if len(b.Diagnostics) != 1 || b.Diagnostics[0].Pos.Path != ".okfignore" || b.Diagnostics[0].Code != CodeUnreadable || b.Diagnostics[0].Message != want {
		t.Errorf("diagnostics %v, want %q", b.Diagnostics, want)
	}
}
