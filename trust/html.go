package trust

import (
	_ "embed"
	"fmt"
	"html/template"
	"io"
	"slices"
	"strings"
	"time"
)

// The page is one self-contained file: inline CSS, inline JS and inline SVG, and a Content Security
// Policy that forbids loading anything else, so a reviewer can open it from a CI artifact offline.
//
//go:embed report.html.tmpl
var htmlTemplate string

var pageTmpl = template.Must(template.New("page").Funcs(template.FuncMap{
	"when":    when,
	"stamp":   stampText,
	"stale":   staleText,
	"flags":   func(c *Concept) string { return strings.Join(flags(c), ", ") },
	"chain":   chainText,
	"join":    strings.Join,
	"add1":    func(i int) int { return i + 1 },
	"lower":   strings.ToLower,
	"orDash":  orDash,
	"sortkey": func(t time.Time) string { return t.UTC().Format(time.RFC3339) },
	"sub":     func(a, b float64) float64 { return a - b },
	// wbr lets a long concept ID break after its slashes, and nowhere else.
	"wbr": func(id string) template.HTML {
		return template.HTML(strings.ReplaceAll(template.HTMLEscapeString(id), "/", "/<wbr>"))
	},
}).Parse(htmlTemplate))

// bar is one segment of a stacked bar in the totals chart.
type bar struct {
	Label, Class string
	N            int
	X, W         float64
}

// chartRow is one stacked bar of the totals chart.
type chartRow struct {
	Name string
	Y    int
	Bars []bar
}

// tick is one day on the staleness timeline, with its concepts stacked by freshness.
type tick struct {
	X                      float64
	Label                  string
	Stale, Expiring, Fresh int
	IDs                    string
	// Heights of the stacked segments, and their tops.
	HS, HE, HF, YS, YE, YF float64
}

type htmlPage struct {
	*Report
	Chart     []chartRow
	ChartH    int
	Timeline  []tick
	NowX      float64
	WindowX   float64
	HasWindow bool
	AxisFrom  string
	AxisTo    string
	Upcoming  []*Concept
	Notes     []string
	AllTiers  []string
	AllFresh  []string
	Legend    string
}

const chartW = 560.0

func stack(name string, y int, total int, parts ...bar) chartRow {
	row := chartRow{Name: name, Y: y}
	x := 0.0
	for _, p := range parts {
		if p.N == 0 {
			continue
		}
		p.X = x
		if total > 0 {
			p.W = chartW * float64(p.N) / float64(total)
		}
		x += p.W
		row.Bars = append(row.Bars, p)
	}
	return row
}

// timelineW and timelineH are the plot size of the staleness timeline.
const timelineW, timelineH = 760.0, 120.0

func writeHTML(w io.Writer, r *Report, o WriteOptions) error {
	t := r.Totals
	p := htmlPage{Report: r, Legend: approxLegend,
		AllTiers: []string{"human-reviewed", "machine-confirmed", "unverified"},
		AllFresh: []string{FreshStale, FreshExpiring, FreshFresh, FreshNone}}
	p.Chart = []chartRow{
		stack("tier", 0, t.Concepts, bar{Label: "human-reviewed", Class: "human", N: t.HumanReviewed},
			bar{Label: "machine-confirmed", Class: "machine", N: t.MachineConfirmed}, bar{Label: "unverified", Class: "unverified", N: t.Unverified}),
		stack("status", 40, t.Concepts, bar{Label: "stable", Class: "stable", N: t.Stable},
			bar{Label: "draft", Class: "draft", N: t.Draft}, bar{Label: "deprecated", Class: "deprecated", N: t.Deprecated}),
		stack("staleness", 80, t.Concepts, bar{Label: "fresh", Class: "fresh", N: t.Fresh},
			bar{Label: "expiring", Class: "expiring", N: t.Expiring}, bar{Label: "stale", Class: "stale", N: t.Stale},
			bar{Label: "no stale_after", Class: "none", N: t.NoStaleAfter}),
	}
	p.ChartH = 120

	// The timeline: one column per stale_after day, stacked by freshness, with now and the window.
	for _, c := range r.Concepts {
		if c.StaleAfter != nil {
			p.Upcoming = append(p.Upcoming, c)
		}
	}
	slices.SortStableFunc(p.Upcoming, func(a, b *Concept) int { return a.StaleAfter.At.Compare(b.StaleAfter.At) })
	if len(p.Upcoming) > 0 {
		from := r.Now
		to := r.Now.Add(r.window)
		for _, c := range p.Upcoming {
			if c.StaleAfter.At.Before(from) {
				from = c.StaleAfter.At
			}
			if c.StaleAfter.At.After(to) {
				to = c.StaleAfter.At
			}
		}
		from = from.Truncate(24 * time.Hour)
		to = to.Truncate(24 * time.Hour).Add(24 * time.Hour)
		span := to.Sub(from).Seconds()
		x := func(t time.Time) float64 { return timelineW * t.Sub(from).Seconds() / span }
		p.NowX = x(r.Now)
		p.HasWindow = r.window > 0
		p.WindowX = x(r.Now.Add(r.window))
		p.AxisFrom, p.AxisTo = from.Format(time.DateOnly), to.Format(time.DateOnly)
		byDay := map[string]*tick{}
		var days []string
		most := 0
		for _, c := range p.Upcoming {
			day := c.StaleAfter.At.UTC().Format(time.DateOnly)
			tk := byDay[day]
			if tk == nil {
				tk = &tick{X: x(c.StaleAfter.At.Truncate(24 * time.Hour).Add(12 * time.Hour)), Label: day}
				byDay[day] = tk
				days = append(days, day)
			}
			switch c.Freshness {
			case FreshStale:
				tk.Stale++
			case FreshExpiring:
				tk.Expiring++
			default:
				tk.Fresh++
			}
			if n := tk.Stale + tk.Expiring + tk.Fresh; n <= 20 {
				if n > 1 {
					tk.IDs += ", "
				}
				tk.IDs += c.ID
			} else if n == 21 {
				tk.IDs += ", …"
			}
			most = max(most, tk.Stale+tk.Expiring+tk.Fresh)
		}
		for _, d := range days {
			tk := byDay[d]
			unit := (timelineH - 10) / float64(most)
			tk.HS, tk.HE, tk.HF = unit*float64(tk.Stale), unit*float64(tk.Expiring), unit*float64(tk.Fresh)
			tk.YS = timelineH - tk.HS
			tk.YE = tk.YS - tk.HE
			tk.YF = tk.YE - tk.HF
			p.Timeline = append(p.Timeline, *tk)
		}
	}
	for _, c := range r.Concepts {
		for _, n := range c.Notes {
			p.Notes = append(p.Notes, fmt.Sprintf("%s: %s", c.Path, n))
		}
	}
	return pageTmpl.Execute(w, p)
}
