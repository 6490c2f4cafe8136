package trust

import (
	"bytes"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"testing/fstest"
	"unicode/utf8"

	"github.com/okf-tools/okf/okf"
)

// bigBundle is an in-memory bundle of n concepts in folders of 100: every third a draft, every
// fourth unverified, every fifth stale, each citing the one before it, and IDs and titles in Japanese so a
// character is three bytes.
func bigBundle(t *testing.T, n int) *Report {
	t.Helper()
	fsys := fstest.MapFS{}
	for i := 0; i < n; i++ {
		var b strings.Builder
		fmt.Fprintf(&b, "---\ntype: Metric\ntitle: 指標 %d の定義\n", i)
		if i%3 == 0 {
			b.WriteString("status: draft\n")
		}
		if i%4 != 0 {
			b.WriteString("verified: { by: human:ana, at: 2026-11-01T00:00:00Z }\n")
		}
		if i%5 == 0 {
			b.WriteString("stale_after: 2026-11-01T00:00:00Z\n")
		}
		if i > 0 {
			fmt.Fprintf(&b, "sources:\n  - resource: /d%02d/指標%05d.md\n", (i-1)/100, i-1)
		}
		b.WriteString("---\nBody.\n")
		fsys[fmt.Sprintf("d%02d/指標%05d.md", i/100, i)] = &fstest.MapFile{Data: []byte(b.String())}
	}
	b, err := okf.Load(fsys, okf.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return Build(b, Options{Now: fixtureNow, ExpiringWithin: okf.DefaultExpiringWindow})
}

var (
	queueLineRE = regexp.MustCompile(`(?m)^\d+\. ` + "`")
	moreRE      = regexp.MustCompile(`(?m)^… and (\d+) more\. Run ` + "`okf trust --top 0 big`" + ` to see the whole queue\.$`)
)

// TestMarkdownBudget: the Markdown report never passes --max-bytes, counted in characters (code
// points) as GitHub counts a comment; the totals come first, then the queue's top, then how many
// more with the command that lists them.
func TestMarkdownBudget(t *testing.T) {
	r := bigBundle(t, 3000)
	if len(r.Queue) < 1000 {
		t.Fatalf("fixture queue has %d items, want a long one", len(r.Queue))
	}
	for _, budget := range []int{MinMaxChars, 10000, DefaultMaxChars} {
		t.Run(strconv.Itoa(budget), func(t *testing.T) {
			var buf bytes.Buffer
			if err := Write(&buf, r, "markdown", WriteOptions{Top: 0, MaxChars: budget, FullCommand: "okf trust --top 0 big"}); err != nil {
				t.Fatal(err)
			}
			out := buf.String()
			if n := utf8.RuneCountInString(out); n > budget {
				t.Errorf("%d characters, budget %d", n, budget)
			}
			if budget == DefaultMaxChars && len(out) <= budget {
				t.Errorf("%d bytes: the Japanese titles should make the bytes exceed the %d characters", len(out), budget)
			}
			if !strings.HasPrefix(out, "## okf trust report: bundle\n\n3000 concepts at ") {
				t.Errorf("does not start with the summary:\n%.200s", out)
			}
			if !strings.Contains(out, "| **all** | 3000 |") {
				t.Error("the totals row is missing")
			}
			if !strings.Contains(out, fmt.Sprintf("### Review queue (%d)\n", len(r.Queue))) {
				t.Error("the queue heading does not give its length")
			}
			shown := len(queueLineRE.FindAllString(out, -1))
			m := moreRE.FindStringSubmatch(out)
			if m == nil {
				t.Fatalf("no '… and N more' line naming the command:\n%s", out[max(0, len(out)-600):])
			}
			if more, _ := strconv.Atoi(m[1]); shown+more != len(r.Queue) || shown == 0 {
				t.Errorf("%d shown + %s more, want %d in all and some shown", shown, m[1], len(r.Queue))
			}
			// The first item shown is the head of the queue.
			if !strings.Contains(out, "1. `"+r.Queue[0].ID+"`") {
				t.Errorf("the queue does not start with %s", r.Queue[0].ID)
			}
			if !strings.Contains(out, "_Cut to fit ") {
				t.Error("no closing note saying what was left out")
			}
		})
	}

	// --top caps the queue before the budget does.
	var buf bytes.Buffer
	if err := Write(&buf, r, "markdown", WriteOptions{Top: 10, MaxChars: DefaultMaxChars, FullCommand: "okf trust --top 0 big"}); err != nil {
		t.Fatal(err)
	}
	if n := len(queueLineRE.FindAllString(buf.String(), -1)); n != 10 {
		t.Errorf("--top 10 shows %d items", n)
	}
	if m := moreRE.FindStringSubmatch(buf.String()); m == nil || m[1] != strconv.Itoa(len(r.Queue)-10) {
		t.Errorf("--top 10: more line %v, want %d more", m, len(r.Queue)-10)
	}

	// No budget and no top: everything, no note.
	buf.Reset()
	if err := Write(&buf, r, "markdown", WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	if n := len(queueLineRE.FindAllString(buf.String(), -1)); n != len(r.Queue) || strings.Contains(buf.String(), "Cut to fit") {
		t.Errorf("no budget: %d of %d queue items", n, len(r.Queue))
	}

	// A budget too small for the summary is an error, not a longer report.
	if err := Write(&bytes.Buffer{}, r, "markdown", WriteOptions{MaxChars: 300}); err == nil || !strings.Contains(err.Error(), "too small") {
		t.Errorf("MaxChars 300: err = %v, want too small", err)
	}
}

// TestMarkdownSmall: a report that fits is whole, with no note.
func TestMarkdownSmall(t *testing.T) {
	r := buildFixture(t, Options{ExpiringWithin: okf.DefaultExpiringWindow})
	var buf bytes.Buffer
	if err := Write(&buf, r, "markdown", WriteOptions{Top: DefaultTop, MaxChars: DefaultMaxChars}); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(buf.String(), "Cut to fit") || strings.Contains(buf.String(), "more. Run") {
		t.Error("the fixture's report fits, yet something was left out")
	}
}

// TestTextWidth: on a terminal every line fits its width and nothing is cut (lines wrap; the
// concept table, too wide for 80 columns, becomes one record per concept, every field named);
// piped, the lines are whole and the table is a table. TestTextReadableAt80 has long IDs.
func TestTextWidth(t *testing.T) {
	r := buildFixture(t, Options{ExpiringWithin: okf.DefaultExpiringWindow})
	for _, colour := range []bool{false, true} {
		var buf bytes.Buffer
		if err := Write(&buf, r, "text", WriteOptions{Width: 80, Color: colour}); err != nil {
			t.Fatal(err)
		}
		wrapped := 0
		for _, line := range strings.Split(strings.TrimSuffix(buf.String(), "\n"), "\n") {
			plain := stripANSI(line)
			if n := utf8.RuneCountInString(plain); n > 80 {
				t.Errorf("colour %v: line of %d runes: %q", colour, n, plain)
			}
			if strings.Contains(plain, "…") {
				t.Errorf("colour %v: a line was cut: %q", colour, plain)
			}
			if strings.HasPrefix(plain, "      ") {
				wrapped++
			}
		}
		if wrapped == 0 {
			t.Error("no line was wrapped, yet the fixture has lines longer than 80")
		}
		// Each concept is a record whose fields are named as the table's columns.
		out := stripANSI(buf.String())
		for _, want := range []string{"\n  computations/revenue\n    status\u00a0stable, tier\u00a0machine-confirmed, sources\u00a0",
			"\n    type           Attested Computation\n",
			"\n    stale after    "} {
			if !strings.Contains(out, want) {
				t.Errorf("colour %v: no %q in\n%s", colour, want, out)
			}
		}
	}
	var buf bytes.Buffer
	if err := Write(&buf, r, "text", WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(buf.String(), "…") {
		t.Error("piped (no width), a line was cut")
	}
	if !regexp.MustCompile(`(?m)^  ID {2,}TYPE {2,}STATUS {2,}TIER {2,}LAST VERIFIED {2,}GENERATED {2,}STALE AFTER {2,}SOURCES {2,}FLAGS$`).MatchString(buf.String()) {
		t.Errorf("piped, the concept table's header lost columns:\n%s", buf.String())
	}
}

// TestTextTop: --top shows the head of the queue and says how many more.
func TestTextTop(t *testing.T) {
	r := buildFixture(t, Options{ExpiringWithin: okf.DefaultExpiringWindow})
	var buf bytes.Buffer
	if err := Write(&buf, r, "text", WriteOptions{Top: 5}); err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	if !strings.Contains(out, "  5. lineage/draft-notes: ") || strings.Contains(out, "  6. ") {
		t.Error("--top 5 does not show exactly the first five")
	}
	if !strings.Contains(out, "  … and 9 more (--top 0 shows all)\n") {
		t.Error("no line counting the 9 more of the 14")
	}
}

// TestFailingQueueFlags: the other flags of the queue gate too. In the fixture, only changed is
// edited after its verification; draft-notes, summary and report derive from flagged concepts;
// revenue's attester /computations/attest.py is not in the bundle.
func TestFailingQueueFlags(t *testing.T) {
	r := buildFixture(t, Options{ExpiringWithin: okf.DefaultExpiringWindow})
	ids := func(cond string) []string {
		var out []string
		for _, f := range r.Failing([]string{cond}) {
			out = append(out, f.ID)
		}
		return out
	}
	for cond, want := range map[string][]string{
		"changed-since-verified": {"changed"},
		"lineage":                {"lineage/draft-notes", "lineage/report", "lineage/summary"},
		"attester":               {"computations/revenue"},
	} {
		if got := ids(cond); !slices.Equal(got, want) {
			t.Errorf("--fail-on %s: %q, want %q", cond, got, want)
		}
	}
	f := r.Failing([]string{"lineage"})
	if f[1].Detail != "dates/stale-now is stale, +1 more" {
		t.Errorf("lineage detail of lineage/report = %q", f[1].Detail)
	}
}

// TestAttesterProblem reads attester.resource as lint's OKF707 and okf attest do (§10.2, D14,
// D17, D18), from the bundle's file list only.
func TestAttesterProblem(t *testing.T) {
	ac := func(attester string) *fstest.MapFile {
		text := "---\ntype: Attested Computation\nruntime: sqlite\n"
		if attester != "" {
			text += "attester:\n  resource: " + attester + "\n"
		}
		return &fstest.MapFile{Data: []byte(text + "---\n```sql\nSELECT 1\n```\n")}
	}
	fsys := fstest.MapFS{
		"ok-file.md":         ac("/attesters/check.py"),
		"ok-builtin.md":      ac("builtin:sql-equality"),
		"unknown-builtin.md": ac("builtin:nope"),
		"url.md":             ac("https://example.com/check.py"),
		"escapes.md":         ac("../outside.py"),
		"missing.md":         ac("/attesters/gone.py"),
		"folder.md":          ac("/attesters"),
		"none.md":            ac(""),
		"attesters/check.py": {Data: []byte("print('pass')\n")},
		"note.md":            {Data: []byte("---\ntype: Note\nattester:\n  resource: /gone.py\n---\nNot a computation.\n")},
	}
	b, err := okf.Load(fsys, okf.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	r := Build(b, Options{Now: fixtureNow, Builtins: []string{"builtin:fidelity", "builtin:sql-equality"}})
	want := map[string]string{
		"ok-file":         "",
		"ok-builtin":      "",
		"unknown-builtin": `unknown built-in attester "builtin:nope"`,
		"url":             `attester "https://example.com/check.py" is a URL: only files inside the bundle and builtin:NAME run`,
		"escapes":         `attester "../outside.py" leaves the bundle (D14)`,
		"missing":         `attester "/attesters/gone.py" does not exist in the bundle`,
		"folder":          `attester "/attesters" is a folder, not a file`,
		"none":            "no attester.resource is declared",
		"note":            "", // not an Attested Computation
	}
	for id, w := range want {
		if got := concept(t, r, id).AttesterProblem; got != w {
			t.Errorf("%s: %q, want %q", id, got, w)
		}
	}
	// Without a list of builtins, every builtin: name is taken as runnable.
	r = Build(b, Options{Now: fixtureNow})
	if got := concept(t, r, "unknown-builtin").AttesterProblem; got != "" {
		t.Errorf("no builtin list: %q, want none", got)
	}
}

// TestChars: the budget counts as a GitHub comment does, in UTF-16 units: a character of the
// Basic Multilingual Plane is 1 (ASCII, é, 指), one outside it is 2 (😀, U+1F600).
func TestChars(t *testing.T) {
	for s, want := range map[string]int{"": 0, "abc": 3, "é": 1, "指標": 2, "😀": 2, "a😀é": 4} {
		if got := chars(s); got != want {
			t.Errorf("chars(%q) = %d, want %d", s, got, want)
		}
	}
}
