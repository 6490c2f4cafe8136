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
