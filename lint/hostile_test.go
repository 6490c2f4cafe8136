package lint

import (
	"fmt"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/okf-tools/okf/internal/bytesize"
	"github.com/okf-tools/okf/okf"
)

// A pull request of n concepts sharing one title (git stores the one blob once, so this costs the
// attacker nothing) must not make OKF108's output grow as n²: each finding names a few of the
// others and counts the rest. Uncapped, 10,000 such files printed about a gigabyte.
func TestTitleDuplicateBounded(t *testing.T) {
	const n = 3000
	files := map[string]string{}
	for i := range n {
		files[fmt.Sprintf("c/x%04d.md", i)] = "---\ntype: Note\ntitle: Same\n---\n# Same\n"
	}
	b := load(t, files)
	ds := Run(b, Options{Rules: []*Rule{TitleDuplicate}})
	if len(ds) != n {
		t.Fatalf("%d findings, want %d", len(ds), n)
	}
	total := 0
	for _, d := range ds {
		total += len(d.Message)
	}
	if total > n*300 {
		t.Errorf("OKF108 messages total %d bytes for %d concepts: not linear", total, n)
	}
	// The first concept names the next three by path order and counts the rest: n-1 others, 3 named.
	want := fmt.Sprintf(`title "Same" is also the title of c/x0001.md, c/x0002.md, c/x0003.md and %d more: readers and agents choosing by title cannot tell them apart; make it distinct (§4.1)`, n-4)
	if ds[0].Pos.Path != "c/x0000.md" || ds[0].Message != want {
		t.Errorf("first finding:\n%s: %.300s\nwant c/x0000.md: %s", ds[0].Pos.Path, ds[0].Message, want)
	}
	// The last names the first three (itself left out).
	if m := ds[n-1].Message; !strings.Contains(m, "c/x0000.md, c/x0001.md, c/x0002.md and ") {
		t.Errorf("last finding: %.300s", m)
	}
}

// One file can hold hundreds of thousands of findings of one rule (an 8 MiB line of broken links:
// 640,000), and copies of it cost a pull request nothing, while every finding is kept until the
// report is sorted (a 4 MB file took 1.4 GB for -f sarif). A rule reports at most
// MaxFindingsPerFile findings per file, then one finding counting the rest, at the first left out.
func TestFindingsPerFileBounded(t *testing.T) {
	const links = MaxFindingsPerFile + 500
	body := strings.Repeat("[a](nope.md) ", links)
	b := load(t, map[string]string{
		"x.md": "---\ntype: Note\ntitle: X\n---\n# X\n" + body + "\n",
		"y.md": "---\ntype: Note\ntitle: Y\n---\n# Y\n[a](nope.md)\n",
	})
	ds := Run(b, Options{Rules: []*Rule{LinkBroken}})
	var x []okf.Diagnostic
	for _, d := range ds {
		if d.Pos.Path == "x.md" {
			x = append(x, d)
		}
	}
	if len(x) != MaxFindingsPerFile+1 || len(ds) != len(x)+1 {
		t.Fatalf("%d findings in x.md, %d in all; want %d and %d", len(x), len(ds), MaxFindingsPerFile+1, MaxFindingsPerFile+2)
	}
	last := x[len(x)-1]
	// The 1,001st link starts at column 1 + 1000 × 13 of line 6.
	want := fmt.Sprintf("500 more findings of this rule in this file are not reported (okf reports at most %d per rule and file)", MaxFindingsPerFile)
	if last.Code != "OKF601" || last.Pos.Line != 6 || last.Pos.Col != 1+MaxFindingsPerFile*13 || last.Message != want {
		t.Errorf("summary finding %s %d:%d %q, want OKF601 6:%d %q", last.Code, last.Pos.Line, last.Pos.Col, last.Message, 1+MaxFindingsPerFile*13, want)
	}
}

// .okf.yaml comes with the pull request: its max_file_size may lower the limit, but raise it no
// further than MaxConfigFileSize, or a 2 MB pull request (a 4 GB file of zeros compresses that
// well in git) would make okf read and parse gigabytes. Only --max-file-size goes past it.
func TestConfigCannotRaiseSizeLimitFar(t *testing.T) {
	got := configProblems(t, ".okf.yaml", "max_file_size: 4GiB\n")
	want := ".okf.yaml:1:16: max_file_size 4 GiB is over the 32 MiB a bundle's configuration may set (only --max-file-size goes past it)"
	if len(got) != 1 || got[0] != want {
		t.Errorf("problems %q, want %s", got, want)
	}
	c, _ := ParseConfig(".okf.yaml", []byte("max_file_size: 4GiB\n"))
	if c.MaxFileSize != MaxConfigFileSize {
		t.Errorf("max_file_size 4GiB read as %d, want the ceiling %d", c.MaxFileSize, MaxConfigFileSize)
	}
	for _, ok := range []string{"1KiB", "32MiB", "20MiB"} {
		c := mustConfig(t, "max_file_size: "+ok+"\n")
		if n, _ := bytesize.Parse(ok); c.MaxFileSize != n {
			t.Errorf("max_file_size %s: read as %d", ok, c.MaxFileSize)
		}
	}
}

// okf lint --fix and -f sarif compute the fix of every OKF802 finding (a concept missing from its
// index); each fix was checked by parsing the whole index again, so n findings on a long index
// cost n parses of it: 1,000 on a 200 KB index took 86 s. With the index growing with the bundle,
// the work (bytes allocated, a count that does not depend on the machine) must grow linearly.
func TestIndexFixesLinear(t *testing.T) {
	alloc := func(n int) uint64 {
		files := map[string]string{}
		idx := "---\nokf_version: \"0.2\"\n---\n# R\n" + strings.Repeat("Some prose in the index, not an entry.\n", 20*n)
		files["index.md"] = idx
		for i := range n {
			files[fmt.Sprintf("c%04d.md", i)] = fmt.Sprintf("---\ntype: Note\ntitle: C%d\n---\n# C\n", i)
		}
		b := load(t, files)
		ds := Run(b, Options{Rules: []*Rule{ConceptNotIndexed}})
		var m0, m1 runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&m0)
		fixes := Fixes(b, ds)
		runtime.ReadMemStats(&m1)
		if len(fixes) != n {
			t.Fatalf("%d fixes for %d unlisted concepts", len(fixes), n)
		}
		return m1.TotalAlloc - m0.TotalAlloc
	}
	small, large := alloc(50), alloc(400)
	if large > 16*small {
		t.Errorf("fixes of 400 findings allocated %d bytes, of 50: %d (×%.1f for ×8 the findings): not linear", large, small, float64(large)/float64(small))
	}
}

// The fixes of timestamps, tags and paths looked their field up among all of the file's fields
// for every finding: n date-only `verified` timestamps cost n² (50,000 of them, capped to 1,000
// findings, still took 22 s in -f sarif). The work must grow linearly with the fields.
func TestFieldFixesLinear(t *testing.T) {
	alloc := func(n int) uint64 {
		var fm strings.Builder
		fm.WriteString("---\ntype: Note\ntitle: A\nverified:\n")
		for range n {
			fm.WriteString("  - by: human:x\n    at: 2026-01-01\n")
		}
		fm.WriteString("tags:\n")
		for i := range n {
			fmt.Fprintf(&fm, "  - %d\n", i)
		}
		fm.WriteString("---\n# A\n")
		b := load(t, map[string]string{"a.md": fm.String()})
		ds := Run(b, Options{Rules: []*Rule{TimestampDateOnly, TagsNotStringList}})
		var m0, m1 runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&m0)
		fixes := Fixes(b, ds)
		runtime.ReadMemStats(&m1)
		if len(fixes) != 2*n {
			t.Fatalf("%d fixes for %d timestamps and %d tags", len(fixes), n, n)
		}
		return m1.TotalAlloc - m0.TotalAlloc
	}
	small, large := alloc(100), alloc(800)
	if large > 16*small {
		t.Errorf("fixes of 800 fields allocated %d bytes, of 100: %d (×%.1f for ×8 the fields): not linear", large, small, float64(large)/float64(small))
	}
}

// SARIF turns each fix's byte offsets into lines and columns from the file's text; the file was
// read again for every fix (1,000 fixes in a 4 MB file: 4 GB read). It is read once per file.
func TestSARIFReadsEachFileOnce(t *testing.T) {
	var fm strings.Builder
	fm.WriteString("---\ntype: Note\ntitle: A\nverified:\n")
	for range 50 {
		fm.WriteString("  - by: human:x\n    at: 2026-01-01\n")
	}
	fm.WriteString("---\n# A\n")
	b := load(t, map[string]string{"a.md": fm.String(), "b.md": fm.String()})
	ds := Run(b, Options{Rules: []*Rule{TimestampDateOnly}})
	reads := map[string]int{}
	r := &Report{Diagnostics: ds, Fixes: Fixes(b, ds), ReadFile: func(p string) ([]byte, error) {
		reads[p]++
		return b.ReadFile(p)
	}}
	var out strings.Builder
	if err := (SARIFPrinter{}).Print(&out, r); err != nil {
		t.Fatal(err)
	}
	if len(r.Fixes) != 100 || reads["a.md"] != 1 || reads["b.md"] != 1 {
		t.Errorf("%d fixes; files read %v times, want once each", len(r.Fixes), reads)
	}
	if n := strings.Count(out.String(), `"fixes"`); n != 100 {
		t.Errorf("%d SARIF results with fixes, want 100", n)
	}
}

// The configuration's ignore list is bounded like .okfignore (okf.MaxIgnorePatterns): the rest is
// refused.
func TestConfigIgnoreBounded(t *testing.T) {
	var src strings.Builder
	src.WriteString("ignore:\n")
	for i := range okf.MaxIgnorePatterns + 3 {
		fmt.Fprintf(&src, "  - x%d.md\n", i)
	}
	c, _ := ParseConfig(".okf.yaml", []byte(src.String()))
	got := configProblems(t, ".okf.yaml", src.String())
	want := ".okf.yaml:2:3: ignore lists 515 patterns: at most 512 are allowed"
	if len(c.Ignore) != okf.MaxIgnorePatterns || len(got) != 1 || got[0] != want {
		t.Errorf("%d patterns kept, problems %q; want %d and %s", len(c.Ignore), got, okf.MaxIgnorePatterns, want)
	}
}

// overrides are bounded too (MaxOverrides): more are refused.
func TestConfigOverridesBounded(t *testing.T) {
	var src strings.Builder
	src.WriteString("overrides:\n")
	for i := range MaxOverrides + 2 {
		fmt.Fprintf(&src, "  - paths: [\"d%d/**\"]\n    rules: { OKF606: off }\n", i)
	}
	c, _ := ParseConfig(".okf.yaml", []byte(src.String()))
	got := configProblems(t, ".okf.yaml", src.String())
	// The 257th entry starts on line 2 + 2×256.
	want := fmt.Sprintf(".okf.yaml:%d:5: overrides lists 258 entries: at most 256 are allowed", 2+2*MaxOverrides)
	if len(c.Overrides) != MaxOverrides || len(got) != 1 || got[0] != want {
		t.Errorf("%d overrides kept, problems %q; want %d and %s", len(c.Overrides), got, MaxOverrides, want)
	}
}

// Every value a person writes can be megabytes long (a 3 MB title, a link target as long as the
// line allows), and a finding quotes the value it is about: quoted whole, one value made a 900 KB
// message, printed again in every format and by every editor hover. A finding repeats at most
// maxShown bytes of any one value, and says where it cut. The bundle writes a long value in every
// place a rule reads one, so a rule added later that quotes a value whole fails here too.
func TestMessagesQuoteLongValuesClipped(t *testing.T) {
	const n = 100_000
	long := strings.Repeat("x", n)
	word := strings.Repeat("w", n)
	fm := strings.Join([]string{
		"type: " + long,
		"title: " + long,
		"description: " + long + ". " + long + ".",
		"tags: " + long + ", b",
		"resource: " + long,
		"status: " + long,
		"okf_version: " + long,
		"stale_after: " + long,
		"timestamp: " + long,
		"generated:\n  by: " + long + "\n  at: " + long,
		"verified:\n  by: " + long + "\n  at: " + long,
		"sources:\n  - " + long + "\n  - {id: " + long + ", url: " + long + "}",
		"runtime: " + long,
		"computation: " + long,
		"executor: " + long,
		"attester: " + long,
		"usage_window: " + long,
		"parameters: " + long,
		"? " + word + "\n: 1",
	}, "\n")
	body := "# " + long + "\n\n" + long + "[^" + word + "]\n\n" +
		"[a](" + word + ".md) [b](#" + word + ") [c](../" + word + ".md) [d](/." + word + ".md) [e](x.md#" + word + ")\n"
	files := map[string]string{
		"a.md":                                  "---\n" + fm + "\n---\n" + body,
		"x.md":                                  "---\ntype: note\ntitle: " + long + "\n---\n# X\n",
		"index.md":                              "---\nokf_version: " + long + "\n---\n# " + long + "\n\n## " + long + "\n\n* [" + long + "](" + word + ".md) - " + long + "\n",
		"log.md":                                "# " + long + "\n\n## " + long + "\n\n* " + long + "\n",
		"c/" + strings.Repeat("n", 200) + ".md": "---\ntitle: " + long + "\n---\n",
		"d.md":                                  "---\ntype: note\n? " + word + "\n: 1\n? " + word + "\n: 2\n---\n# D\n",
	}
	b := load(t, files)
	ds := Run(b, Options{Now: time.Date(2026, 7, 1, 0, 0, 0, 0, time.UTC)})
	if len(ds) < 10 {
		t.Fatalf("only %d findings: the bundle no longer reaches the rules", len(ds))
	}
	const most = 2 * 1024
	for _, d := range ds {
		if len(d.Message) > most {
			t.Errorf("%s %s: message of %d bytes (at most %d): %.200s…", d.Code, d.Pos, len(d.Message), most, d.Message)
		}
	}
}
