package trust

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/okf-tools/okf/okf"
)

// TestTextReadableAt80 checks the text report on an 80-column terminal with IDs far longer than
// the line: no line is wider than 80, and nothing is cut away: every ID, actor and date is there
// whole (read with the line breaks and indentation taken out), so a reviewer can copy it. A wide
// terminal keeps the concept table.
func TestTextReadableAt80(t *testing.T) {
	root := filepath.Join(t.TempDir(), "kb")
	long := []string{
		"warehouse/finance/reporting/quarterly/consolidated-statements-of-operations-and-comprehensive-income",
		"a-rather-long-folder-name/another-long-folder-name/and-a-third-one/the-concept-itself",
		"x" + strings.Repeat("y", 110),
		"short",
	}
	for i, id := range long {
		doc := fmt.Sprintf("---\ntitle: C%d\ntype: BigQuery Materialized View Definition\nverified:\n  - by: human:someone.with.a.long.name@example.com\n    at: 2026-07-0%dT09:00:00Z\n"+
			"generated:\n  by: reference_agent/gemini-2.5-pro-experimental\n  at: 2026-06-30T14:00:00Z\nstale_after: 2026-12-1%dT00:00:00Z\n---\n# C\n", i, i+1, i)
		p := filepath.Join(root, filepath.FromSlash(id)+".md")
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(doc), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	b, err := okf.LoadDir(root, okf.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	r := Build(b, Options{Now: fixtureNow, ExpiringWithin: okf.DefaultExpiringWindow})
	for _, colour := range []bool{false, true} {
		var buf bytes.Buffer
		if err := Write(&buf, r, "text", WriteOptions{Width: 80, Color: colour}); err != nil {
			t.Fatal(err)
		}
		plain := stripANSI(buf.String())
		for _, line := range strings.Split(strings.TrimSuffix(plain, "\n"), "\n") {
			if n := utf8.RuneCountInString(line); n > 80 {
				t.Errorf("colour %v: line of %d columns: %q", colour, n, line)
			}
		}
		joined := strings.Join(strings.Fields(plain), "")
		for i, id := range long {
			for _, whole := range []string{id, "human:someone.with.a.long.name@example.com", fmt.Sprintf("2026-07-0%dT09:00:00Z", i+1),
				"reference_agent/gemini-2.5-pro-experimental", fmt.Sprintf("2026-12-1%dT00:00:00Z", i), "BigQueryMaterializedViewDefinition"} {
				if !strings.Contains(joined, whole) {
					t.Errorf("colour %v: %q is cut in the report:\n%s", colour, whole, plain)
				}
			}
		}
		if strings.Contains(plain, "…") {
			t.Errorf("colour %v: something was cut with an ellipsis:\n%s", colour, plain)
		}
	}
	// On a terminal wide enough, the concept table.
	var buf bytes.Buffer
	if err := Write(&buf, r, "text", WriteOptions{Width: 400}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(buf.String(), "\n  ID ") || !strings.Contains(buf.String(), "  STALE AFTER  ") {
		t.Errorf("a 400-column terminal lost the concept table:\n%s", buf.String())
	}
}

// TestFitLineKeepsEverything wraps random lines (spaces, slashes, wide runes, okf's colours) at
// random widths: every piece fits, and every non-space rune is still there, in order.
func TestFitLineKeepsEverything(t *testing.T) {
	parts := []string{"a", "bb", " ", "  ", "/", "é", "界", red, reset, bold, "x/y/z", "1."}
	seed := uint64(7)
	next := func(n int) int { seed = seed*6364136223846793005 + 1442695040888963407; return int(seed>>33) % n }
	for range 3000 {
		var b strings.Builder
		b.WriteString(strings.Repeat(" ", next(6)))
		for range next(80) {
			b.WriteString(parts[next(len(parts))])
		}
		line, width := b.String(), 1+next(40)
		got := string(fitLine([]byte(line), width))
		for _, l := range strings.Split(got, "\n") {
			if n := utf8.RuneCountInString(stripANSI(l)); n > width {
				t.Fatalf("width %d: piece of %d runes %q from %q", width, n, l, line)
			}
		}
		squash := func(s string) string { return strings.Join(strings.Fields(s), "") }
		if squash(got) != squash(line) {
			t.Fatalf("width %d: %q wrapped as %q lost or moved text", width, line, got)
		}
	}
}
