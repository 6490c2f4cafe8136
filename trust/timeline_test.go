package trust

import (
	"bytes"
	"fmt"
	"html"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/okf-tools/okf/okf"
)

// glyphW is a generous width of one character of the timeline's 12px system-ui labels (digits,
// dashes and capitals of an RFC 3339 stamp measure 6–7px in the common sans-serif fonts).
const glyphW = 7.0

var (
	timelineRE = regexp.MustCompile(`(?s)<svg id="timeline-chart"([^>]*)>(.*?)</svg>`)
	viewBoxRE  = regexp.MustCompile(`viewBox="([-0-9.]+) ([-0-9.]+) ([-0-9.]+) ([-0-9.]+)"`)
	svgTextRE  = regexp.MustCompile(`<text x="([-0-9.]+)" y="([-0-9.]+)"(?: text-anchor="(start|middle|end)")?[^>]*>([^<]*)</text>`)
)

// TestTimelineLabelsInside checks that every label of the staleness timeline (the axis dates, the
// counts, the "now" stamp) lies inside the SVG's viewBox, with now at the left edge, at the right
// edge and in between, and over spans of a day to years; and that the chart scales down with the
// page (no fixed width wider than a narrow window), so what is inside the viewBox is on the page
// at every width.
func TestTimelineLabelsInside(t *testing.T) {
	now := time.Date(2026, 11, 30, 0, 0, 0, 0, time.UTC)
	day := 24 * time.Hour
	for _, tc := range []struct {
		name   string
		window time.Duration
		stale  []time.Time
	}{
		{"now at the left edge", 30 * day, []time.Time{now.Add(40 * day), now.Add(200 * day)}},
		{"now at the right edge", 0, []time.Time{now.Add(-300 * day), now.Add(-2 * day)}},
		{"now at the right edge, a window", day, []time.Time{now.Add(-90 * day)}},
		{"one day", 0, []time.Time{now}},
		{"years", 30 * day, []time.Time{now.Add(-3 * 365 * day), now.Add(4 * 365 * day)}},
		{"many columns", 30 * day, func() []time.Time {
			var ts []time.Time
			for i := range 60 {
				ts = append(ts, now.Add(time.Duration(i*3-100)*day))
			}
			return ts
		}()},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root := filepath.Join(t.TempDir(), "kb")
			if err := os.MkdirAll(root, 0o755); err != nil {
				t.Fatal(err)
			}
			for i, s := range tc.stale {
				doc := fmt.Sprintf("---\ntitle: Concept %d\nstale_after: %s\n---\n# C\n", i, s.Format(time.RFC3339))
				if err := os.WriteFile(filepath.Join(root, fmt.Sprintf("c%02d.md", i)), []byte(doc), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			b, err := okf.LoadDir(root, okf.LoadOptions{})
			if err != nil {
				t.Fatal(err)
			}
			var buf bytes.Buffer
			if err := Write(&buf, Build(b, Options{Now: now, ExpiringWithin: tc.window}), "html", WriteOptions{}); err != nil {
				t.Fatal(err)
			}
			m := timelineRE.FindSubmatch(buf.Bytes())
			if m == nil {
				t.Fatal("no timeline in the page")
			}
			attrs, body := string(m[1]), string(m[2])
			if !strings.Contains(attrs, `width="100%"`) && !strings.Contains(attrs, "max-width:100%") {
				t.Errorf("the timeline has a fixed width, clipped in a narrow window: %s", attrs)
			}
			vb := viewBoxRE.FindStringSubmatch(attrs)
			if vb == nil {
				t.Fatalf("no viewBox: %s", attrs)
			}
			minX, _ := strconv.ParseFloat(vb[1], 64)
			w, _ := strconv.ParseFloat(vb[3], 64)
			texts := svgTextRE.FindAllStringSubmatch(body, -1)
			sawNow := false
			type span struct {
				label       string
				left, right float64
			}
			axis := []span{} // the labels under the axis, which must not overlap
			for _, tx := range texts {
				x, _ := strconv.ParseFloat(tx[1], 64)
				label := html.UnescapeString(tx[4])
				sawNow = sawNow || strings.HasPrefix(label, "now ")
				tw := glyphW * float64(len([]rune(label)))
				left := x - tw/2
				switch tx[3] {
				case "", "start": // SVG's default anchor is start
					left = x
				case "end":
					left = x - tw
				}
				if tx[2] == "137" {
					for _, o := range axis {
						if left < o.right && o.left < left+tw {
							t.Errorf("axis labels %q and %q overlap", o.label, label)
						}
					}
					axis = append(axis, span{label, left, left + tw})
				}
				if left < minX || left+tw > minX+w {
					t.Errorf("label %q spans x %.1f to %.1f, outside the viewBox %.1f to %.1f", label, left, left+tw, minX, minX+w)
				}
			}
			if !sawNow {
				t.Errorf("no now label among %d labels", len(texts))
			}
		})
	}
}
