package lint

import (
	"fmt"
	"strings"
	"testing"

	"github.com/okf-tools/okf/okf"
)

// TestCollectorBoundsEachFile reports interleaved findings on two files of the bundle and on a path
// outside it (the configuration file, which has no slot): each keeps exactly MaxFindingsPerFile, and
// the finding that counts the rest says how many were left out of that file, whatever the order.
func TestCollectorBoundsEachFile(t *testing.T) {
	c := &collector{slots: map[string]int32{"a.md": 0, "b.md": 1}}
	reports := map[string]int{"a.md": MaxFindingsPerFile + 7, "b.md": MaxFindingsPerFile, ".okf.yaml": MaxFindingsPerFile + 2, "c.md": 3}
	for i := 0; ; i++ {
		any := false
		for _, p := range []string{"a.md", "b.md", ".okf.yaml", "c.md"} {
			if i < reports[p] {
				c.report(okf.Diagnostic{Pos: okf.Position{Path: p, Line: int32(i + 1)}, Code: "OKF999", Message: "x"})
				any = true
			}
		}
		if !any {
			break
		}
	}
	c.flush()
	kept := map[string]int{}
	summaries := map[string]string{}
	n := 0
	for _, ch := range c.chunks {
		for _, d := range ch {
			n++
			if strings.HasSuffix(d.Message, "per rule and file)") {
				summaries[d.Pos.Path] = fmt.Sprintf("%d %s", d.Pos.Line, d.Message)
				continue
			}
			kept[d.Pos.Path]++
		}
	}
	if n != c.n {
		t.Errorf("collector counts %d findings, holds %d", c.n, n)
	}
	want := map[string]int{"a.md": MaxFindingsPerFile, "b.md": MaxFindingsPerFile, ".okf.yaml": MaxFindingsPerFile, "c.md": 3}
	for p, w := range want {
		if kept[p] != w {
			t.Errorf("%s: kept %d findings, want %d", p, kept[p], w)
		}
	}
	wantSum := map[string]string{
		"a.md":      fmt.Sprintf("%d 7 more findings of this rule in this file are not reported (okf reports at most %d per rule and file)", MaxFindingsPerFile+1, MaxFindingsPerFile),
		".okf.yaml": fmt.Sprintf("%d 2 more findings of this rule in this file are not reported (okf reports at most %d per rule and file)", MaxFindingsPerFile+1, MaxFindingsPerFile),
	}
	if len(summaries) != len(wantSum) {
		t.Errorf("summaries %v, want %v", summaries, wantSum)
	}
	for p, w := range wantSum {
		if summaries[p] != w {
			t.Errorf("%s: summary %q, want %q", p, summaries[p], w)
		}
	}
}

// TestDropSchemaDuplicates: a schema finding is left out where another rule reports on the same
// line of the same file, and kept everywhere else (another line, another file, or only schema
// findings on the line); the other findings are never dropped.
func TestDropSchemaDuplicates(t *testing.T) {
	at := func(path string, line int32, code string) okf.Diagnostic {
		return okf.Diagnostic{Pos: okf.Position{Path: path, Line: line, Col: 1}, Code: code, Message: code}
	}
	ds := []okf.Diagnostic{
		at("a.md", 3, SchemaMismatch.Code), // dropped: OKF103 on a.md:3
		at("a.md", 3, "OKF103"),
		at("a.md", 4, SchemaMismatch.Code), // kept: nothing else on a.md:4
		at("b.md", 3, SchemaMismatch.Code), // kept: the OKF103 is in a.md
		at("b.md", 5, SchemaMismatch.Code), // kept: two schema findings alone
		at("b.md", 5, SchemaMismatch.Code),
		at("c.md", 7, "OKF201"), // kept: not a schema finding
		at("c.md", 7, SchemaMismatch.Code),
		at("c.md", 7, SchemaMismatch.Code), // both dropped
	}
	got := dropSchemaDuplicates(ds)
	want := []string{"a.md:3 OKF103", "a.md:4 OKF905", "b.md:3 OKF905", "b.md:5 OKF905", "b.md:5 OKF905", "c.md:7 OKF201"}
	var have []string
	for _, d := range got {
		have = append(have, fmt.Sprintf("%s:%d %s", d.Pos.Path, d.Pos.Line, d.Code))
	}
	if strings.Join(have, ", ") != strings.Join(want, ", ") {
		t.Errorf("kept %v, want %v", have, want)
	}
	if got := dropSchemaDuplicates([]okf.Diagnostic{at("a.md", 1, "OKF103")}); len(got) != 1 {
		t.Errorf("without schema findings, kept %d of 1", len(got))
	}
}
