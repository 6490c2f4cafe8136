package trust

import (
	_ "embed"
	"fmt"
	"html/template"
	"io"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/okf-tools/okf/internal/escape"
)

// The page is one self-contained file: inline CSS, inline JS and inline SVG, and a Content Security
// Policy that forbids loading anything else, so a reviewer can open it from a CI artifact offline.
//
//go:embed report.html.tmpl
var htmlTemplate string

// pageTmpl is parsed on first use: parsing it at init cost every okf process ~0.4 ms and 100 KB,
// while only `okf trust -f html` renders it.
var pageTmpl = sync.OnceValue(func() *template.Template {
	return template.Must(template.New("page").Funcs(template.FuncMap{
		"when":  when,
		"stale": staleText,
		"chain": chainText,
		"join":  strings.Join,
		// capjoin lists at most htmlListCap IDs and counts the rest, so a change of thousands of
		// concepts keeps the page small.
		"capjoin": func(ids []string) string {
			if len(ids) <= htmlListCap {
				return strings.Join(ids, ", ")
			}
			return fmt.Sprintf("%s … and %d more", strings.Join(ids[:htmlListCap], ", "), len(ids)-htmlListCap)
		},
		"sub": func(a, b float64) float64 { return a - b },
		// esc shows control characters and bidi overrides of bundle text as visible escapes;
		// html/template then makes the text inert HTML.
		"esc": escape.Control,
		// light reports the palette colours that take dark text.
		"light": func(class string) bool {
			return slices.Contains([]string{"machine", "unverified", "draft", "fresh", "expiring", "none"}, class)
		},
	}).Parse(htmlTemplate))
})

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
	Count                  svgLabel // the count above the column
	Label                  string
	Stale, Expiring, Fresh int
	N                      int // all three
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
	XTicks    []axisTick
	NowLabel  svgLabel
	// ViewX and ViewW are the timeline's viewBox across: the plot and room for the labels.
	ViewX, ViewW float64
	YMax         int
	Counts       bool // label each timeline column with its count
	Upcoming     []*Concept
	UpMore       int
	Notes        []string
	NotesMore    int
	Lineage      []string
	LineMore     int
	Queue        []htmlQueueItem
	QueueMore    int
	DirsShown    int
	AllTiers     []string
	AllFresh     []string
	Legend       string
	Data         pageData
	PageSize     int
}

// htmlQueueItem is one review-queue entry as the page prints it.
type htmlQueueItem struct {
	N        int
	ID       string
	Touched  bool
	Evidence string
}

// axisTick is one labelled date on the timeline's axis.
type axisTick struct {
	X     float64
	Label svgLabel
}

// svgLabel is a text of the timeline placed so it stays inside the viewBox: centred on its point,
// or, where half of it would cross an edge, aligned to that edge (text-anchor start or end).
type svgLabel struct {
	X      float64
	Anchor string
	Text   string
}

// labelGlyphW over-estimates the width of one character of the chart's 12px sans-serif labels
// (digits, dashes and capitals of a date measure 6–7px), so a placed label never reaches an edge.
const labelGlyphW = 7.5

// placeLabel centres text on x unless that would cross lo or hi, where it aligns to the edge.
func placeLabel(x float64, text string, lo, hi float64) svgLabel {
	w := labelGlyphW * float64(utf8.RuneCountInString(text))
	switch {
	case x-w/2 < lo:
		return svgLabel{X: lo, Anchor: "start", Text: text}
	case x+w/2 > hi:
		return svgLabel{X: hi, Anchor: "end", Text: text}
	}
	return svgLabel{X: x, Anchor: "middle", Text: text}
}

// pageData is what the page's script renders the concept table and the rest of the queue from.
// It is kept compact for large bundles: each concept is an array (see rowFields in the template),
// and repeated strings (types, actors, instants, flags) are numbers into S, whose entry 0 is "".
// html/template writes it as JSON inside <script type="application/json"> with <, > and &
// escaped, so no value can close the script element.
type pageData struct {
	S []string `json:"s"`
	C [][]any  `json:"c"`
	// Q is the queue beyond the first items: [concept index, evidence, touched 0/1].
	Q [][]any `json:"q"`
}

// htmlCaps bound the sections printed in full, so the page stays small at any size.
const (
	htmlLineageCap  = 50
	htmlNotesCap    = 100
	htmlUpcomingCap = 50
	htmlDirsCap     = 20
	htmlPageSize    = 100
	htmlListCap     = 50 // IDs per line of the changes section
)

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
				tk.IDs += escape.Control(c.ID)
			} else if n == 21 {
				tk.IDs += ", …"
			}
			most = max(most, tk.Stale+tk.Expiring+tk.Fresh)
		}
		p.YMax = most
		p.Counts = len(days) <= 40
		// Room left of the plot for the y axis's largest count (right-aligned at -4), and right of
		// it for a label centred on the last day; labels are kept 2 units inside the viewBox.
		padL := max(24, 8+labelGlyphW*float64(len(strconv.Itoa(most))))
		p.ViewX, p.ViewW = -padL, padL+timelineW+12
		lo, hi := p.ViewX+2, p.ViewX+p.ViewW-2
		p.NowLabel = placeLabel(p.NowX, "now "+when(r.Now, false), lo, hi)
		// Axis labels on the first day of months, at most about twelve of them.
		months := 0
		for m := time.Date(from.Year(), from.Month(), 1, 0, 0, 0, 0, time.UTC); !m.After(to); m = m.AddDate(0, 1, 0) {
			months++
		}
		step := max(1, (months+11)/12)
		k := 0
		for m := time.Date(from.Year(), from.Month(), 1, 0, 0, 0, 0, time.UTC); !m.After(to); m = m.AddDate(0, 1, 0) {
			if !m.Before(from) && k%step == 0 {
				p.XTicks = append(p.XTicks, axisTick{X: x(m), Label: placeLabel(x(m), m.Format("2006-01"), lo, hi)})
			}
			if !m.Before(from) {
				k++
			}
		}
		for _, d := range days {
			tk := byDay[d]
			tk.N = tk.Stale + tk.Expiring + tk.Fresh
			unit := (timelineH - 10) / float64(most)
			tk.HS, tk.HE, tk.HF = unit*float64(tk.Stale), unit*float64(tk.Expiring), unit*float64(tk.Fresh)
			tk.YS = timelineH - tk.HS
			tk.YE = tk.YS - tk.HE
			tk.YF = tk.YE - tk.HF
			tk.Count = placeLabel(tk.X, strconv.Itoa(tk.N), lo, hi)
			p.Timeline = append(p.Timeline, *tk)
		}
	}
	if len(p.Upcoming) > htmlUpcomingCap {
		p.UpMore = len(p.Upcoming) - htmlUpcomingCap
		p.Upcoming = p.Upcoming[:htmlUpcomingCap]
	}
	strs := map[string]int{"": 0}
	data := pageData{S: []string{""}, C: [][]any{}, Q: [][]any{}}
	str := func(v string) int {
		v = escape.Control(v)
		if i, ok := strs[v]; ok {
			return i
		}
		strs[v] = len(data.S)
		data.S = append(data.S, v)
		return strs[v]
	}
	at := func(s *Stamp) int {
		if s == nil || s.At.IsZero() {
			return 0
		}
		return str(when(s.At, s.Approximate))
	}
	by := func(s *Stamp) int {
		if s == nil {
			return 0
		}
		return str(escape.Shown(s.By))
	}
	index := map[string]int{}
	for i, c := range r.Concepts {
		index[c.ID] = i
		up, upWhy, upMore := "", 0, 0
		if len(c.Upstream) > 0 {
			up, upWhy, upMore = c.Upstream[0].ID, str(strings.Join(c.Upstream[0].Reasons, ", ")), len(c.Upstream)-1+c.UpstreamMore
		}
		extra := ""
		if c.computation {
			extra = "runtime " + orDash(escape.Shown(c.Runtime)) + ", attester " + orDash(escape.Shown(c.Attester))
			if c.AttesterProblem != "" {
				extra += ": " + c.AttesterProblem
			}
		}
		fl := flags(c)
		if c.AttesterProblem != "" {
			fl = append(fl, "attester")
		}
		esc := escape.Control
		data.C = append(data.C, []any{esc(c.ID), esc(escape.Shown(c.Title)), str(escape.Shown(c.Type)), int(c.Status), int(c.Tier), by(c.Verified), at(c.Verified),
			by(c.Generated), at(c.Generated), at(c.StaleAfter), str(c.Freshness), c.Sources, str(strings.Join(fl, ", ")),
			esc(up), upWhy, upMore, str(extra)})
	}
	top := o.Top
	if top <= 0 || top > len(r.Queue) {
		top = len(r.Queue)
	}
	base := ""
	if r.Changes != nil {
		base = r.Changes.Base
	}
	plain := inline{id: escape.Control, text: escape.Control, approx: approxMark}
	for i, q := range r.Queue {
		ev := evidence(q, base, plain)
		if i < top {
			p.Queue = append(p.Queue, htmlQueueItem{N: i + 1, ID: escape.Control(q.ID), Touched: q.Touched, Evidence: ev})
			continue
		}
		touched := 0
		if q.Touched {
			touched = 1
		}
		data.Q = append(data.Q, []any{index[q.ID], ev, touched})
	}
	p.QueueMore = len(r.Queue) - top
	p.Data = data
	p.PageSize = htmlPageSize
	p.DirsShown = htmlDirsCap

	for _, c := range r.Concepts {
		for _, u := range c.Upstream {
			if len(p.Lineage) == htmlLineageCap {
				p.LineMore++
				continue
			}
			p.Lineage = append(p.Lineage, escape.Control(fmt.Sprintf("%s derives from %s (%s): %s", c.ID, u.ID, strings.Join(u.Reasons, ", "), u.chainText())))
		}
	}
	for _, c := range r.Concepts {
		for _, n := range c.Notes {
			if len(p.Notes) == htmlNotesCap {
				p.NotesMore++
				continue
			}
			p.Notes = append(p.Notes, escape.Control(fmt.Sprintf("%s: %s", c.Path, n)))
		}
	}
	return pageTmpl().Execute(w, p)
}
