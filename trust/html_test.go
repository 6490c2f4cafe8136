package trust

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/okf-tools/okf/internal/synth"
	"github.com/okf-tools/okf/okf"
)

const chromiumPath = "/usr/bin/chromium"

// htmlFile writes the fixture's HTML report to a temporary file.
func htmlFile(t *testing.T) (string, []byte) {
	t.Helper()
	var buf bytes.Buffer
	if err := Write(&buf, buildFixture(t, Options{ExpiringWithin: okf.DefaultExpiringWindow}), "html", WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(t.TempDir(), "report.html")
	if err := os.WriteFile(p, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return p, buf.Bytes()
}

// TestHTMLSelfContained: one file, nothing fetched from elsewhere.
func TestHTMLSelfContained(t *testing.T) {
	_, page := htmlFile(t)
	for _, re := range []string{`(?i)<link\b`, `(?i)\bsrc\s*=`, `(?i)@import`, `(?i)url\(`, `(?i)https?://`} {
		if m := regexp.MustCompile(re).Find(page); m != nil {
			t.Errorf("page refers to an external asset: %q", m)
		}
	}
	for _, want := range []string{`id="totals-chart"`, `id="queue"`, `id="concept-table"`, `id="timeline-chart"`, "Content-Security-Policy"} {
		if !bytes.Contains(page, []byte(want)) {
			t.Errorf("page lacks %s", want)
		}
	}
}

// chromium runs Debian's chromium headless on url with extra arguments and returns stdout and
// stderr. It has a fresh profile and no network features, so the run is the same everywhere.
func chromium(t *testing.T, url string, extra ...string) (string, string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	args := append([]string{"--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
		"--disable-background-networking", "--disable-component-update", "--disable-sync",
		"--user-data-dir=" + t.TempDir()}, extra...)
	args = append(args, url)
	cmd := exec.CommandContext(ctx, chromiumPath, args...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		t.Fatalf("chromium %v: %v\n%s", extra, err, errb.String())
	}
	return out.String(), errb.String()
}

var (
	shownRE  = regexp.MustCompile(`id="concept-table" data-shown="(\d+)"`)
	rowRE    = regexp.MustCompile(`<tr data-id="([^"]+)"[^>]*?( hidden(="")?)?>`)
	errorsRE = regexp.MustCompile(`data-errors="([^"]*)"`)
)

// visible reads, from a dumped DOM, the IDs of the concept rows not hidden by the filter.
func visible(t *testing.T, dom string) []string {
	t.Helper()
	var ids []string
	for _, m := range rowRE.FindAllStringSubmatch(dom, -1) {
		if m[2] == "" {
			ids = append(ids, m[1])
		}
	}
	return ids
}

// TestHTMLBrowser opens the page in headless chromium: it renders (the script ran to the end), the
// table filters from the URL fragment, and no script error was raised.
func TestHTMLBrowser(t *testing.T) {
	if _, err := os.Stat(chromiumPath); err != nil {
		t.Skip("chromium absent:", err)
	}
	page, _ := htmlFile(t)
	url := "file://" + filepath.ToSlash(page)

	tests := []struct {
		fragment string
		want     []string
	}{
		{"", nil}, // all 20
		{"#tier=machine-confirmed", []string{"computations/revenue", "machine"}},
		{"#freshness=stale", []string{"dates/no-offset", "dates/stale-now"}},
		{"#q=LINEAGE%2Fdraft", []string{"lineage/draft-notes"}},
		{"#q=human:ana&freshness=expiring", []string{"dates/date-only", "dates/expiring-inside"}},
	}
	for _, tt := range tests {
		t.Run(tt.fragment, func(t *testing.T) {
			dom, logs := chromium(t, url+tt.fragment, "--dump-dom", "--enable-logging=stderr", "--v=0")
			if !strings.Contains(dom, `data-ready="1"`) {
				t.Fatalf("the page script did not finish; DOM starts:\n%.600s", dom)
			}
			if m := errorsRE.FindStringSubmatch(dom); m != nil {
				t.Errorf("script errors: %s", m[1])
			}
			if strings.Contains(logs, "Uncaught") {
				t.Errorf("console errors:\n%s", logs)
			}
			got := visible(t, dom)
			if tt.want == nil {
				if len(got) != 20 {
					t.Errorf("%d rows visible without a filter, want 20", len(got))
				}
				return
			}
			if strings.Join(got, ",") != strings.Join(tt.want, ",") {
				t.Errorf("visible rows = %q, want %q", got, tt.want)
			}
			if m := shownRE.FindStringSubmatch(dom); m == nil || m[1] != strconv.Itoa(len(tt.want)) {
				t.Errorf("data-shown = %v, want %d", m, len(tt.want))
			}
		})
	}

	// Sorting from the fragment: sources descending puts the three concepts with two sources first.
	t.Run("sort", func(t *testing.T) {
		dom, _ := chromium(t, url+"#sort=-8", "--dump-dom")
		got := visible(t, dom)
		if len(got) < 3 || strings.Join(got[:3], ",") != "lineage/draft-notes,lineage/report,lineage/summary" {
			t.Errorf("rows sorted by sources descending start %q", got)
		}
	})

	// The error trap itself works: a page with a broken script is caught, so the checks above
	// can fail.
	t.Run("error trap", func(t *testing.T) {
		src, err := os.ReadFile(page)
		if err != nil {
			t.Fatal(err)
		}
		broken := filepath.Join(t.TempDir(), "broken.html")
		src = bytes.Replace(src, []byte("</body>"), []byte("<script>undefinedFunction();</script></body>"), 1)
		if err := os.WriteFile(broken, src, 0o644); err != nil {
			t.Fatal(err)
		}
		dom, logs := chromium(t, "file://"+filepath.ToSlash(broken), "--dump-dom", "--enable-logging=stderr", "--v=0")
		if !errorsRE.MatchString(dom) {
			t.Error("a script error was not recorded in data-errors")
		}
		if !strings.Contains(logs, "Uncaught") {
			t.Log("note: chromium did not log the uncaught error to stderr; data-errors caught it")
		}
	})

	// It renders: a screenshot is written and is not tiny.
	t.Run("screenshot", func(t *testing.T) {
		shot := filepath.Join(t.TempDir(), "x.png")
		chromium(t, url, "--screenshot="+shot, "--window-size=1200,900")
		st, err := os.Stat(shot)
		if err != nil || st.Size() < 10_000 {
			t.Errorf("screenshot missing or too small: %v %v", st, err)
		}
	})
}

// writeSynthHTML writes the HTML report of a synthetic bundle of n concepts (internal/synth's
// concepts, held in memory with small bodies: the page's size does not depend on them) and returns
// its path, its bytes and the report.
func writeSynthHTML(t *testing.T, n int) (string, []byte, *Report) {
	t.Helper()
	const perDir, body = 100, 200
	fsys := fstest.MapFS{"index.md": {Data: []byte("---\nokf_version: \"0.2\"\n---\n# Synthetic bundle\n")}}
	for i := 0; i < n; i++ {
		fsys[fmt.Sprintf("area%03d/c%05d.md", i/perDir, i)] = &fstest.MapFile{Data: []byte(synth.Concept(i, n, perDir, body))}
	}
	b, err := okf.Load(fsys, okf.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	r := Build(b, Options{Now: fixtureNow, ExpiringWithin: okf.DefaultExpiringWindow})
	var buf bytes.Buffer
	if err := Write(&buf, r, "html", WriteOptions{Top: DefaultTop}); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(t.TempDir(), "report.html")
	if err := os.WriteFile(p, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return p, buf.Bytes(), r
}

var renderRE = regexp.MustCompile(`data-render-ms="(\d+)"`)

var (
	queueList = regexp.MustCompile(`(?s)<ol class="queue" id="queue-list"[^>]*>.*?</ol>`)
	dirsTable = regexp.MustCompile(`(?s)<table id="dirs">.*?</table>`)
	shownRow  = regexp.MustCompile(`<tr(?: class="more-dir")?>`)
)

// TestHTMLBrowser10k opens the page of a 10,000-concept synthetic bundle: its size stays under
// 3 MB (a property of the output, asserted), its render time is reported (not asserted: it
// depends on the machine), filters and a row link from the URL work, and no script error is raised.
func TestHTMLBrowser10k(t *testing.T) {
	if testing.Short() {
		t.Skip("writes a 10,000-concept bundle")
	}
	page, data, r := writeSynthHTML(t, 10000)
	t.Logf("HTML page for %d concepts: %d bytes (%.2f MB), review queue %d", len(r.Concepts), len(data), float64(len(data))/(1<<20), len(r.Queue))
	if len(data) >= 3<<20 {
		t.Errorf("page is %d bytes, want under 3 MB", len(data))
	}
	if _, err := os.Stat(chromiumPath); err != nil {
		t.Skip("chromium absent:", err)
	}
	url := "file://" + filepath.ToSlash(page)

	count := func(keep func(c *Concept) bool) int {
		n := 0
		for _, c := range r.Concepts {
			if keep(c) {
				n++
			}
		}
		return n
	}
	last := r.Concepts[len(r.Concepts)-1].ID
	tests := []struct {
		fragment string
		shown    int
		rows     int // rows in the DOM: one page at most
	}{
		{"", len(r.Concepts), 100},
		{"#tier=machine-confirmed", count(func(c *Concept) bool { return c.Tier == okf.MachineConfirmed }), 100},
		{"#q=c00042&freshness=stale", count(func(c *Concept) bool {
			return strings.Contains(c.ID, "c00042") && c.Freshness == FreshStale
		}), -1},
		{"#id=" + last, len(r.Concepts), 100},
		{"#queue=all&dirs=all", len(r.Concepts), 100},
	}
	for _, tt := range tests {
		t.Run(tt.fragment, func(t *testing.T) {
			start := time.Now()
			dom, logs := chromium(t, url+tt.fragment, "--dump-dom", "--enable-logging=stderr", "--v=0")
			wall := time.Since(start)
			if !strings.Contains(dom, `data-ready="1"`) {
				t.Fatalf("the page script did not finish; DOM starts:\n%.600s", dom)
			}
			if m := errorsRE.FindStringSubmatch(dom); m != nil {
				t.Errorf("script errors: %s", m[1])
			}
			if strings.Contains(logs, "Uncaught") {
				t.Errorf("console errors:\n%s", logs)
			}
			if m := renderRE.FindStringSubmatch(dom); m != nil {
				t.Logf("rendered %s in %s ms after navigation start (chromium run %s wall, including start-up)", tt.fragment, m[1], wall.Round(time.Millisecond))
			}
			m := shownRE.FindStringSubmatch(dom)
			if m == nil || m[1] != strconv.Itoa(tt.shown) {
				t.Errorf("data-shown = %v, want %d", m, tt.shown)
			}
			rows := visible(t, dom)
			want := tt.rows
			if want < 0 {
				want = tt.shown
			}
			if len(rows) != want {
				t.Errorf("%d rows in the DOM, want %d", len(rows), want)
			}
			if strings.HasPrefix(tt.fragment, "#id=") && !strings.Contains(dom, `<tr data-id="`+last+`" data-tier=`) {
				t.Errorf("the linked row %s is not on the page shown", last)
			}
			// The queue shows its first DefaultTop items; "Show all" (here from the URL) adds the rest.
			items := strings.Count(queueList.FindString(dom), "<li>")
			wantItems := DefaultTop
			if strings.Contains(tt.fragment, "queue=all") {
				wantItems = len(r.Queue)
			}
			if items != wantItems {
				t.Errorf("%d queue items shown, want %d", items, wantItems)
			}
			dirRows := len(shownRow.FindAllString(dirsTable.FindString(dom), -1))
			wantDirs := htmlDirsCap
			if strings.Contains(tt.fragment, "dirs=all") {
				wantDirs = len(r.Directories)
			}
			if dirRows != wantDirs+1 { // and the header row
				t.Errorf("%d directory rows shown, want %d", dirRows-1, wantDirs)
			}
		})
	}
}

// TestHTMLChangesCapped: a change of thousands of concepts lists 50 IDs per line and counts the rest.
func TestHTMLChangesCapped(t *testing.T) {
	r := &Report{Changes: &Changes{Base: "main"}}
	for i := 0; i < 120; i++ {
		r.Changes.Added = append(r.Changes.Added, fmt.Sprintf("c%03d", i))
	}
	var buf bytes.Buffer
	if err := Write(&buf, r, "html", WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(buf.String(), "c048, c049 … and 70 more</li>") || strings.Contains(buf.String(), "c050") {
		t.Error("the added list is not cut at 50 with a count of the 70 more")
	}
}
