package lint

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/okf-tools/okf/okf"
)

// TestAlikeKey: what "the same message apart from the path" means. Two messages of one rule are
// alike when they differ only in the file's own path or name, double-quoted strings, bracketed
// spans and words that start with a digit; a different word, a different section number or a
// different decision keeps them apart.
func TestAlikeKey(t *testing.T) {
	alike := [][2]string{
		{`status "active" is not draft (§5.4, D13)`, `status "wip" is not draft (§5.4, D13)`},
		{`read as generated.at = 2025-03-07T03:39:25Z; replace it`, `read as generated.at = 2026-01-01T00:00:00Z; replace it`},
		{`found the string "a, b": write tags: [a, b] (§4.1)`, `found the string "c": write tags: [c] (§4.1)`},
		{`description has 2 sentences`, `description has 13 sentences`},
		{`id "x\"y" is never cited`, `id "z" is never cited`},
		{`file is larger than the 8MiB limit`, `file is larger than the 16MiB limit`},
	}
	for _, p := range alike {
		if a, b := alikeKey(p[0]), alikeKey(p[1]); a != b {
			t.Errorf("%q and %q should be alike: keys %q, %q", p[0], p[1], a, b)
		}
	}
	apart := [][2]string{
		{`stale_after is empty`, `generated.at is empty`},
		{`concept has no title (§4.1)`, `concept has no title (§5.1)`},
		{`treated as stable (D13)`, `treated as stable (D14)`},
		{`legacy v0.1 timestamp`, `legacy v0.2 timestamp`},
		{`no frontmatter [OKF001]`, `no frontmatter`},
		{`link to "a.md" is broken`, `link to "a.md" is stale`},
		{`unclosed "quote and more`, `unclosed "quote and less`},
	}
	for _, p := range apart {
		if a, b := alikeKey(p[0]), alikeKey(p[1]); a == b {
			t.Errorf("%q and %q should not be alike: both keys %q", p[0], p[1], a)
		}
	}
}

// TestWithoutPath: a finding's own path and file name are one placeholder, so messages that
// name their own file read alike across files; another file's name is left alone.
func TestWithoutPath(t *testing.T) {
	if a, b := withoutPath("links to t/p1.md itself", "t/p1.md"), withoutPath("links to t/p2.md itself", "t/p2.md"); a != b {
		t.Errorf("own path: %q != %q", a, b)
	}
	if a, b := withoutPath("p1.md links to itself", "t/p1.md"), withoutPath("p2.md links to itself", "t/p2.md"); a != b {
		t.Errorf("own name: %q != %q", a, b)
	}
	if a, b := withoutPath("links to other.md", "t/p1.md"), withoutPath("links to else.md", "t/p2.md"); a == b {
		t.Errorf("another file's name must stay: %q == %q", a, b)
	}
}

func TestCitesDecision(t *testing.T) {
	for msg, want := range map[string]bool{
		"treated as stable (§5.4, D13)": true,
		"(D1)":                          true,
		"D7":                            true,
		"ADD13 is no decision":          false,
		"D13x is no decision":           false,
		"no decision here":              false,
		"§4.1 only":                     false,
	} {
		if got := citesDecision(msg); got != want {
			t.Errorf("citesDecision(%q) = %v, want %v", msg, got, want)
		}
	}
}

// manyFiles is a report of one finding alike in n files (each with its own value), and one
// finding of another rule in the first file.
func manyFiles(n int) *Report {
	var ds []okf.Diagnostic
	for i := 1; i <= n; i++ {
		p := fmt.Sprintf("t/p%02d.md", i)
		ds = append(ds, okf.Diagnostic{Pos: okf.Position{Path: p, Line: 3, Col: 7}, Code: "OKF401", Severity: okf.Warning,
			Message: fmt.Sprintf(`status "v%d" is not draft, stable or deprecated: treated as stable (§5.4, D13)`, i)})
	}
	ds = append(ds, okf.Diagnostic{Pos: okf.Position{Path: "t/p01.md", Line: 9}, Code: "OKF905", Severity: okf.Warning, Message: "tags: expected a list"})
	return &Report{Diagnostics: okf.SortDiagnostics(ds), Group: true, Rules: []*Rule{}}
}

// TestGroupThreshold: a finding alike in 4 files is shown in each; in 5 it is shown once, with the
// count and the first three other files.
func TestGroupThreshold(t *testing.T) {
	var buf bytes.Buffer
	if err := (TextPrinter{}).Print(&buf, manyFiles(GroupMinFiles-1)); err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(buf.String(), "[OKF401]"); n != GroupMinFiles-1 || strings.Contains(buf.String(), "more like it") {
		t.Errorf("4 files: %d OKF401 lines, want 4 and no group:\n%s", n, buf.String())
	}
	buf.Reset()
	if err := (TextPrinter{}).Print(&buf, manyFiles(GroupMinFiles)); err != nil {
		t.Fatal(err)
	}
	want := `t/p01.md:3:7: warning: status "v1" is not draft, stable or deprecated: treated as stable (§5.4, D13) [OKF401]
  and 4 more like it, 5 files in all (with their own values): t/p02.md:3:7, t/p03.md:3:7, t/p04.md:3:7, …
t/p01.md:9: warning: tags: expected a list [OKF905]

0 errors, 6 warnings, 0 infos
5 findings alike in 5 files or more are shown as 1 group: --no-group shows every one
§ numbers are sections of the OKF v0.2 spec (` + SpecURL + `); D numbers are okf's decisions (` + DecisionsURL + `)
`
	if buf.String() != want {
		t.Errorf("5 files:\n--- got\n%s--- want\n%s", buf.String(), want)
	}
}

// TestGroupCounts: findings and files are counted apart (a file may hold the finding twice), the
// files listed are other files than the first, and identical messages say nothing of values.
func TestGroupCounts(t *testing.T) {
	var ds []okf.Diagnostic
	for _, p := range []string{"a.md", "a.md", "b.md", "c.md", "d.md", "e.md", "e.md"} {
		ds = append(ds, okf.Diagnostic{Pos: okf.Position{Path: p, Line: int32(len(ds) + 1)}, Code: "OKF905", Severity: okf.Warning, Message: "tags: expected a list"})
	}
	v := newView(&Report{Diagnostics: ds, Group: true})
	if len(v.items) != 1 || v.items[0].group == nil {
		t.Fatalf("items = %+v, want one group", v.items)
	}
	if got, want := v.items[0].group.line(), "  and 6 more like it, 5 files in all: b.md:3, c.md:4, d.md:5, …"; got != want {
		t.Errorf("group line = %q, want %q", got, want)
	}
	// Without Group, every finding.
	if v := newView(&Report{Diagnostics: ds}); len(v.items) != len(ds) {
		t.Errorf("ungrouped: %d items, want %d", len(v.items), len(ds))
	}
}

// TestFloorSummary: findings below the floor are counted, not shown; the summary says how to show
// them, and when they still fail the run.
func TestFloorSummary(t *testing.T) {
	ds := []okf.Diagnostic{
		{Pos: okf.Position{Path: "a.md", Line: 1, Col: 1}, Code: "OKF001", Severity: okf.Error, Message: "no frontmatter"},
		{Pos: okf.Position{Path: "b.md", Line: 1, Col: 1}, Code: "OKF905", Severity: okf.Warning, Message: "tags"},
		{Pos: okf.Position{Path: "c.md", Line: 1, Col: 1}, Code: "OKF102", Severity: okf.Info, Message: "no description"},
	}
	for _, c := range []struct {
		floor, failOn okf.Severity
		want          string
	}{
		{okf.Warning, okf.Error, "a.md:1:1: error: no frontmatter [OKF001]\nb.md:1:1: warning: tags [OKF905]\n\n" +
			"1 error, 1 warning, 1 info (not shown); 1,234 files checked\n1 info not shown: --min-severity info shows them\n"},
		{okf.Error, okf.Warning, "a.md:1:1: error: no frontmatter [OKF001]\n\n" +
			"1 error, 1 warning (not shown), 1 info (not shown); 1,234 files checked\n1 warning and 1 info not shown (the warnings fail this run: --fail-on warning): --min-severity info shows them\n"},
		{okf.Error, okf.Info, "a.md:1:1: error: no frontmatter [OKF001]\n\n" +
			"1 error, 1 warning (not shown), 1 info (not shown); 1,234 files checked\n1 warning and 1 info not shown (they fail this run: --fail-on info): --min-severity info shows them\n"},
		{okf.Info, okf.Error, "a.md:1:1: error: no frontmatter [OKF001]\nb.md:1:1: warning: tags [OKF905]\nc.md:1:1: info: no description [OKF102]\n\n" +
			"1 error, 1 warning, 1 info; 1,234 files checked\n"},
	} {
		var buf bytes.Buffer
		r := &Report{Diagnostics: ds, UseFloor: true, Floor: c.floor, FailOn: c.failOn, Files: 1234}
		if err := (TextPrinter{}).Print(&buf, r); err != nil {
			t.Fatal(err)
		}
		if buf.String() != c.want {
			t.Errorf("floor %s, fail-on %s:\n--- got\n%s--- want\n%s", c.floor, c.failOn, buf.String(), c.want)
		}
	}
}

// TestGitHubCap: GitHub shows 10 annotations of each kind per step. With 12 errors, 3 warnings and
// 12 infos: 10 errors, the 3 warnings and 9 notices are annotations (the closing notice is the
// tenth), the rest are log lines that start no workflow command, and the last line says so.
func TestGitHubCap(t *testing.T) {
	var ds []okf.Diagnostic
	add := func(n int, sev okf.Severity, code string) {
		for i := 0; i < n; i++ {
			ds = append(ds, okf.Diagnostic{Pos: okf.Position{Path: fmt.Sprintf("%s-%02d.md", code, i), Line: 1}, Code: code, Severity: sev, Message: fmt.Sprintf("finding in file %c", 'a'+i)})
		}
	}
	add(12, okf.Error, "OKF001")
	add(3, okf.Warning, "OKF905")
	add(12, okf.Info, "OKF102")
	var buf bytes.Buffer
	if err := (GitHubPrinter{}).Print(&buf, &Report{Diagnostics: okf.SortDiagnostics(ds), Group: true}); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(buf.String(), "\n"), "\n")
	count := func(prefix string) int {
		n := 0
		for _, l := range lines {
			if strings.HasPrefix(l, prefix) {
				n++
			}
		}
		return n
	}
	if e, w, n := count("::error "), count("::warning "), count("::notice "); e != 10 || w != 3 || n != 10 {
		t.Errorf("annotations: %d errors, %d warnings, %d notices; want 10, 3, 10 (9 and the closing one)\n%s", e, w, n, buf.String())
	}
	if n := count("OKF001-") + count("OKF102-"); n != 2+3 {
		t.Errorf("%d log lines of findings, want 5 (2 errors, 3 infos)\n%s", n, buf.String())
	}
	want := "::notice title=okf lint::5 of the 27 findings shown are in this step's log above, not annotations (GitHub shows 10 annotations of each kind per step): -f sarif with code scanning shows every finding"
	if last := lines[len(lines)-1]; last != want {
		t.Errorf("last line = %q, want %q", last, want)
	}
	// Under the cap, no closing notice.
	buf.Reset()
	if err := (GitHubPrinter{}).Print(&buf, &Report{Diagnostics: ds[:10]}); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(buf.String(), "title=okf lint") {
		t.Errorf("10 errors fit: no closing notice wanted\n%s", buf.String())
	}
}

func TestThousands(t *testing.T) {
	for n, want := range map[int]string{0: "0", 999: "999", 1000: "1,000", 12720: "12,720", 1234567: "1,234,567", -4500: "-4,500"} {
		if got := thousands(n); got != want {
			t.Errorf("thousands(%d) = %q, want %q", n, got, want)
		}
	}
}

// TestAlikeKeyBounded: the key of a long hostile message (unclosed quotes and brackets, digits)
// is built in time linear in its length.
func TestAlikeKeyBounded(t *testing.T) {
	for _, s := range []string{strings.Repeat(`"`, 1<<20), strings.Repeat("[a", 1<<19), strings.Repeat("[", 1<<20), strings.Repeat(" 1", 1<<19), "[" + strings.Repeat("a", 1<<20)} {
		if k := alikeKey(s); len(k) > len(s) {
			t.Errorf("key longer than the message")
		}
	}
}

// TestGroupEscapesHostilePaths: the line under a group names other files; their paths (a line
// break and a workflow command, an escape sequence, ##[) are escaped as every path is, in every
// human format, and the github log lines past the cap start no command.
func TestGroupEscapesHostilePaths(t *testing.T) {
	var ds []okf.Diagnostic
	for i := 0; i < 14; i++ {
		p := fmt.Sprintf("evil%02d\n::error file=x.md::\x1b[31m##[error]%d.md", i, i)
		ds = append(ds, okf.Diagnostic{Pos: okf.Position{Path: p, Line: 1}, Code: "OKF905", Severity: okf.Warning, Message: "tags: expected a list"})
		// a finding of its own in each file, so that the github cap is passed with --no-group
		ds = append(ds, okf.Diagnostic{Pos: okf.Position{Path: p, Line: 2}, Code: "OKF401", Severity: okf.Warning, Message: fmt.Sprintf("status %q", p)})
	}
	ds = okf.SortDiagnostics(ds)
	for _, group := range []bool{true, false} {
		for _, format := range []string{"text", "pretty", "github"} {
			p, _ := NewPrinter(format)
			var buf bytes.Buffer
			if err := p.Print(&buf, &Report{Diagnostics: ds, Group: group}); err != nil {
				t.Fatal(err)
			}
			if group && !strings.Contains(buf.String(), "more like it") {
				t.Errorf("%s: no group line\n%s", format, buf.String())
			}
			for _, line := range strings.Split(strings.TrimSuffix(buf.String(), "\n"), "\n") {
				if strings.Contains(line, "##[") {
					t.Errorf("%s (group %v): line holds a legacy workflow command: %q", format, group, line)
				}
				if strings.HasPrefix(strings.TrimLeft(line, " \t"), "::") && !(format == "github" && ghCommand(line)) {
					t.Errorf("%s (group %v): line reads as a workflow command: %q", format, group, line)
				}
				for _, r := range line {
					if r < 0x20 && r != '\t' || r >= 0x7f && r <= 0x9f {
						t.Errorf("%s (group %v): line carries control character %U: %q", format, group, r, line)
					}
				}
			}
		}
	}
}

// ghCommand reports whether a github line is one of okf's own commands: an annotation whose file
// property is escaped (no raw "::" before the message), or the closing notice.
func ghCommand(line string) bool {
	for _, kind := range []string{"::error ", "::warning ", "::notice "} {
		if rest, ok := strings.CutPrefix(line, kind); ok {
			props, _, found := strings.Cut(rest, "::")
			return found && !strings.Contains(props, "\\n::")
		}
	}
	return false
}

// TestSummaryElapsed: the time is said only when the report carries it (okf lint sets it for a
// terminal), rounded to hundredths of a second.
func TestSummaryElapsed(t *testing.T) {
	var buf bytes.Buffer
	if err := (TextPrinter{}).Print(&buf, &Report{Files: 12, Elapsed: 354 * time.Millisecond}); err != nil {
		t.Fatal(err)
	}
	if got, want := buf.String(), "0 errors, 0 warnings, 0 infos; 12 files checked in 0.35s\n"; got != want {
		t.Errorf("summary = %q, want %q", got, want)
	}
}
