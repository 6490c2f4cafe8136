package trust

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/okf-tools/okf/okf"
)

var fixtureNow = time.Date(2026, 11, 30, 0, 0, 0, 0, time.UTC)

func loadFixture(t *testing.T, name string) *okf.Bundle {
	t.Helper()
	b, err := okf.LoadDir(filepath.Join("..", "testdata", "bundles", "trust", name), okf.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func buildFixture(t *testing.T, opts Options) *Report {
	t.Helper()
	if opts.Now.IsZero() {
		opts.Now = fixtureNow
	}
	return Build(loadFixture(t, "mixed"), opts)
}

func concept(t *testing.T, r *Report, id string) *Concept {
	t.Helper()
	for _, c := range r.Concepts {
		if c.ID == id {
			return c
		}
	}
	t.Fatalf("concept %q not in the report", id)
	return nil
}

func mustTime(t *testing.T, s string) time.Time {
	t.Helper()
	v, err := time.Parse(time.RFC3339, s)
	if err != nil {
		t.Fatal(err)
	}
	return v.UTC()
}

// TestTiersAndStaleness checks each fixture concept against D10–D13 at now = 2026-11-30T00:00:00Z
// with the default 30-day window. The expected values are worked out from the spec by hand.
func TestTiersAndStaleness(t *testing.T) {
	r := buildFixture(t, Options{ExpiringWithin: okf.DefaultExpiringWindow})
	tests := []struct {
		id        string
		tier      okf.Tier
		status    okf.Status
		fresh     string
		lastBy    string // "" when there is no counted verification
		lastAt    string
		changed   bool
		approx    bool
		noteMatch string
	}{
		// No verified key: unverified (§5.3); no stale_after: never stale.
		{id: "plain", tier: okf.Unverified, status: okf.Stable, fresh: FreshNone},
		// A bare mapping is a one-element list (§5.2).
		{id: "bare", tier: okf.HumanReviewed, status: okf.Stable, fresh: FreshFresh, lastBy: "human:ana", lastAt: "2026-10-01T09:00:00Z"},
		// One human entry makes it human-reviewed; "last verified" is the latest at, the machine's.
		{id: "mixed-list", tier: okf.HumanReviewed, status: okf.Stable, fresh: FreshFresh, lastBy: "process:nightly", lastAt: "2026-11-20T02:00:00Z"},
		// process: and team: are both non-human (D12).
		{id: "machine", tier: okf.MachineConfirmed, status: okf.Stable, fresh: FreshFresh, lastBy: "team:data", lastAt: "2026-11-03T02:00:00Z"},
		// "yes" is not a mapping: unverified with a note (D12).
		{id: "yes", tier: okf.Unverified, status: okf.Stable, fresh: FreshNone, noteMatch: `verified is "yes"`},
		// An entry without by does not count (D12); an unknown status reads as stable (D13).
		{id: "noby", tier: okf.Unverified, status: okf.Stable, fresh: FreshNone, noteMatch: `status "wip"`},
		// generated.at after the last verification (D12).
		{id: "changed", tier: okf.HumanReviewed, status: okf.Draft, fresh: FreshNone, lastBy: "human:ana", lastAt: "2026-11-01T00:00:00Z", changed: true},
		// The v0.1 timestamp stands in for generated.at; an empty stale_after counts as absent (D10).
		{id: "legacy", tier: okf.Unverified, status: okf.Stable, fresh: FreshNone, noteMatch: "stale_after is empty"},
		// Date-only: 00:00 UTC (D10); 2026-12-15 is 15 days ahead: expiring.
		{id: "dates/date-only", tier: okf.HumanReviewed, status: okf.Stable, fresh: FreshExpiring, lastBy: "human:ana", lastAt: "2026-11-01T00:00:00Z", approx: true, noteMatch: "date-only"},
		// Offset-less: UTC (D10); 2026-11-29T12:00 is before now: stale.
		{id: "dates/no-offset", tier: okf.HumanReviewed, status: okf.Stable, fresh: FreshStale, lastBy: "human:ana", lastAt: "2026-11-29T09:00:00Z", approx: true, noteMatch: "has no offset"},
		// now >= stale_after at the very instant (§5.5).
		{id: "dates/stale-now", tier: okf.HumanReviewed, status: okf.Stable, fresh: FreshStale, lastBy: "human:ana", lastAt: "2026-06-01T00:00:00Z"},
		// Exactly 30 days ahead: inside the window (D11).
		{id: "dates/expiring-inside", tier: okf.HumanReviewed, status: okf.Stable, fresh: FreshExpiring, lastBy: "human:ana", lastAt: "2026-06-01T00:00:00Z"},
		// 2026-12-30T01:00:01+01:00 is one second past the window: fresh.
		{id: "dates/expiring-outside", tier: okf.HumanReviewed, status: okf.Stable, fresh: FreshFresh, lastBy: "human:ana", lastAt: "2026-06-01T00:00:00Z"},
		{id: "lineage/old", tier: okf.HumanReviewed, status: okf.Deprecated, fresh: FreshNone, lastBy: "human:ana", lastAt: "2025-01-01T00:00:00Z"},
		{id: "computations/revenue", tier: okf.MachineConfirmed, status: okf.Stable, fresh: FreshExpiring, lastBy: "process:finance-nightly", lastAt: "2026-11-29T02:00:00Z"},
	}
	for _, tt := range tests {
		t.Run(tt.id, func(t *testing.T) {
			c := concept(t, r, tt.id)
			if c.Tier != tt.tier {
				t.Errorf("tier = %s, want %s", c.Tier, tt.tier)
			}
			if c.Status != tt.status {
				t.Errorf("status = %s, want %s", c.Status, tt.status)
			}
			if c.Freshness != tt.fresh {
				t.Errorf("freshness = %s, want %s", c.Freshness, tt.fresh)
			}
			switch {
			case tt.lastBy == "" && c.Verified != nil:
				t.Errorf("verified = %+v, want none", c.Verified)
			case tt.lastBy != "" && c.Verified == nil:
				t.Errorf("verified = none, want %s at %s", tt.lastBy, tt.lastAt)
			case tt.lastBy != "":
				if c.Verified.By != tt.lastBy || !c.Verified.At.Equal(mustTime(t, tt.lastAt)) {
					t.Errorf("verified = %s at %s, want %s at %s", c.Verified.By, c.Verified.At, tt.lastBy, tt.lastAt)
				}
			}
			if c.ChangedSinceVerified != tt.changed {
				t.Errorf("changed since verified = %v, want %v", c.ChangedSinceVerified, tt.changed)
			}
			if c.Approximate != tt.approx {
				t.Errorf("approximate = %v, want %v", c.Approximate, tt.approx)
			}
			if tt.noteMatch != "" && !slices.ContainsFunc(c.Notes, func(n string) bool { return strings.Contains(n, tt.noteMatch) }) {
				t.Errorf("notes %q lack %q", c.Notes, tt.noteMatch)
			}
		})
	}

	want := Totals{Concepts: 20, HumanReviewed: 13, MachineConfirmed: 2, Unverified: 5, Stable: 17, Draft: 2, Deprecated: 1,
		Stale: 2, Expiring: 3, Fresh: 6, NoStaleAfter: 9, ChangedSinceVerified: 1, FlaggedLineage: 3}
	if r.Totals != want {
		t.Errorf("totals = %+v\nwant     %+v", r.Totals, want)
	}
	if !r.Approximate {
		t.Error("report not marked approximate though two concepts use date-only or offset-less values")
	}
}

// TestWindow moves the expiring window: with none, nothing is expiring; with 1d only the
// computation (stale_after 2026-12-01) is.
func TestWindow(t *testing.T) {
	r := buildFixture(t, Options{})
	if r.Totals.Expiring != 0 || r.Totals.Stale != 2 {
		t.Errorf("no window: expiring %d stale %d, want 0 and 2", r.Totals.Expiring, r.Totals.Stale)
	}
	r = buildFixture(t, Options{ExpiringWithin: 24 * time.Hour})
	if got := concept(t, r, "computations/revenue").Freshness; got != FreshExpiring || r.Totals.Expiring != 1 {
		t.Errorf("1d window: revenue %s, expiring %d, want expiring and 1", got, r.Totals.Expiring)
	}
}

// TestLineage follows sources through the bundle (§5.1): report -> summary -> draft-notes (unverified)
// -> old (deprecated), and summary -> dates/stale-now (stale). The walk stops at a flagged concept:
// old is reported on draft-notes' row, not again on report's and summary's.
func TestLineage(t *testing.T) {
	r := buildFixture(t, Options{ExpiringWithin: okf.DefaultExpiringWindow})
	got := concept(t, r, "lineage/report").Upstream
	want := []Upstream{
		{ID: "dates/stale-now", Reasons: []string{"stale"}, Chain: []string{"lineage/report", "lineage/summary", "dates/stale-now"}},
		{ID: "lineage/draft-notes", Reasons: []string{"unverified"}, Chain: []string{"lineage/report", "lineage/summary", "lineage/draft-notes"}},
	}
	same := func(a, b Upstream) bool {
		return a.ID == b.ID && slices.Equal(a.Reasons, b.Reasons) && slices.Equal(a.Chain, b.Chain)
	}
	if !slices.EqualFunc(got, want, same) {
		t.Errorf("upstream of lineage/report =\n%+v\nwant\n%+v", got, want)
	}
	got = concept(t, r, "lineage/draft-notes").Upstream
	want = []Upstream{{ID: "lineage/old", Reasons: []string{"deprecated"}, Chain: []string{"lineage/draft-notes", "lineage/old"}}}
	if !slices.EqualFunc(got, want, same) {
		t.Errorf("upstream of lineage/draft-notes =\n%+v\nwant\n%+v", got, want)
	}
	if up := concept(t, r, "lineage/old").Upstream; len(up) != 0 {
		t.Errorf("lineage/old has no sources, got upstream %+v", up)
	}
	if used := concept(t, r, "dates/stale-now").UsedBy; !slices.Equal(used, []string{"lineage/summary"}) {
		t.Errorf("dates/stale-now used by %q, want lineage/summary", used)
	}
}

// TestCycle: a cycle in sources is reported once and does not hang the walk.
func TestCycle(t *testing.T) {
	r := buildFixture(t, Options{})
	if want := [][]string{{"cycle/a", "cycle/b", "cycle/a"}}; !slices.EqualFunc(r.Cycles, want, slices.Equal) {
		t.Errorf("cycles = %q, want %q", r.Cycles, want)
	}
	for _, id := range []string{"cycle/a", "cycle/b"} {
		if c := concept(t, r, id); !c.InCycle || len(c.Upstream) != 0 {
			t.Errorf("%s: in cycle %v, upstream %+v; want in cycle, no flagged upstream", id, c.InCycle, c.Upstream)
		}
	}
}

// TestQueue checks the documented order: stale and used, stale, machine-confirmed, unverified,
// changed since verified, expiring, flagged lineage; within a rank the most used, then the
// earliest stale_after, then the ID.
func TestQueue(t *testing.T) {
	r := buildFixture(t, Options{ExpiringWithin: okf.DefaultExpiringWindow})
	var got []string
	for _, q := range r.Queue {
		got = append(got, q.ID)
	}
	want := []string{
		"dates/stale-now",                // 1: stale, used by lineage/summary
		"dates/no-offset",                // 2: stale
		"computations/revenue",           // 3: machine-confirmed, stale_after 2026-12-01
		"machine",                        // 3: machine-confirmed, stale_after 2027-03-01
		"lineage/draft-notes",            // 4: unverified, used by lineage/summary
		"legacy", "noby", "plain", "yes", // 4: unverified, by ID
		"changed",               // 5
		"dates/date-only",       // 6: 2026-12-15
		"dates/expiring-inside", // 6: 2026-12-30
		"lineage/summary",       // 7: used by lineage/report
		"lineage/report",        // 7
	}
	if !slices.Equal(got, want) {
		t.Errorf("queue =\n%q\nwant\n%q", got, want)
	}
}

// TestFilters: filters choose the listed concepts, lineage still sees the whole bundle.
func TestFilters(t *testing.T) {
	ids := func(r *Report) []string {
		var out []string
		for _, c := range r.Concepts {
			out = append(out, c.ID)
		}
		return out
	}
	tests := []struct {
		name string
		opts Options
		want []string
	}{
		{"tier", Options{Tiers: []okf.Tier{okf.MachineConfirmed}}, []string{"computations/revenue", "machine"}},
		{"status", Options{Statuses: []okf.Status{okf.Draft, okf.Deprecated}}, []string{"changed", "lineage/draft-notes", "lineage/old"}},
		{"type", Options{Types: []string{"Report", "Summary"}}, []string{"lineage/report", "lineage/summary"}},
		{"stale", Options{StaleOnly: true}, []string{"dates/no-offset", "dates/stale-now"}},
		{"folder", Options{Paths: []string{"lineage/"}}, []string{"lineage/draft-notes", "lineage/old", "lineage/report", "lineage/summary"}},
		{"glob", Options{Paths: []string{"/dates/expiring-*.md"}}, []string{"dates/expiring-inside", "dates/expiring-outside"}},
		// Scope: a folder (trailing slash) keeps what lies below it; without the slash it names
		// a file, so "lineage" keeps nothing; a file keeps that one concept.
		{"scope folder", Options{Scope: "lineage/"}, []string{"lineage/draft-notes", "lineage/old", "lineage/report", "lineage/summary"}},
		{"scope file", Options{Scope: "lineage/old.md"}, []string{"lineage/old"}},
		{"scope without slash is a file", Options{Scope: "lineage"}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := buildFixture(t, tt.opts)
			if got := ids(r); !slices.Equal(got, tt.want) {
				t.Errorf("concepts = %q, want %q", got, tt.want)
			}
			if r.Totals.Concepts != len(tt.want) {
				t.Errorf("totals count %d concepts, want %d", r.Totals.Concepts, len(tt.want))
			}
		})
	}
	r := buildFixture(t, Options{Types: []string{"Report"}})
	if len(concept(t, r, "lineage/report").Upstream) != 2 {
		t.Error("a filter must not cut lineage: lineage/report should still see 2 flagged upstream concepts")
	}
	r = buildFixture(t, Options{Scope: "lineage/"})
	if r.Scope != "lineage/" {
		t.Errorf("report scope %q, want lineage/ (the header says the report is limited)", r.Scope)
	}
}

func TestFailing(t *testing.T) {
	r := buildFixture(t, Options{ExpiringWithin: okf.DefaultExpiringWindow})
	count := func(cond string) int { return len(r.Failing([]string{cond})) }
	// stale 2; expiring = stale 2 + expiring 3; unverified 5; machine-confirmed = unverified 5 + machine 2.
	for cond, want := range map[string]int{"stale": 2, "expiring": 5, "unverified": 5, "machine-confirmed": 7} {
		if got := count(cond); got != want {
			t.Errorf("--fail-on %s: %d concepts, want %d", cond, got, want)
		}
	}
	if _, err := ParseFailOn([]string{"stale", "sometimes"}); err == nil || !strings.Contains(err.Error(), `"sometimes"`) {
		t.Errorf("ParseFailOn(sometimes) = %v, want an error naming the value", err)
	}
}

func TestFormatWindow(t *testing.T) {
	if got := FormatWindow(30 * 24 * time.Hour); got != "30d" {
		t.Errorf("FormatWindow(30 days) = %q", got)
	}
}

// TestCorpusAcme is the acceptance check on the real acme_retail bundle.
func TestCorpusAcme(t *testing.T) {
	dir := filepath.Join("..", "..", "shared", "corpus", "acme_retail")
	if _, err := os.Stat(dir); err != nil {
		t.Skip("corpus absent:", err)
	}
	b, err := okf.LoadDir(dir, okf.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	r := Build(b, Options{Now: mustTime(t, "2026-11-30T00:00:00Z"), ExpiringWithin: okf.DefaultExpiringWindow})
	if tt := r.Totals; tt.HumanReviewed != 8 || tt.Unverified != 1 || tt.MachineConfirmed != 0 || tt.Stale != 0 {
		t.Errorf("at 2026-11-30: %+v; want 8 human-reviewed, 1 unverified, none stale", tt)
	}
	r = Build(b, Options{Now: mustTime(t, "2027-01-15T00:00:00Z"), ExpiringWithin: okf.DefaultExpiringWindow})
	if r.Totals.Stale != 7 {
		t.Errorf("at 2027-01-15: %d stale, want 7", r.Totals.Stale)
	}
}

// TestCycleShapes: a three-concept cycle with a tail leading into it, and a concept citing itself.
func TestCycleShapes(t *testing.T) {
	note := func(srcs ...string) *fstest.MapFile {
		text := "---\ntype: Note\nverified: { by: human:ana, at: 2026-11-01T00:00:00Z }\nsources:\n"
		for _, s := range srcs {
			text += "  - resource: /" + s + ".md\n"
		}
		return &fstest.MapFile{Data: []byte(text + "---\nBody.\n")}
	}
	fsys := fstest.MapFS{
		"a.md": note("b"), "b.md": note("c"), "c.md": note("a"),
		"d.md": note("a"), // leads into the cycle, is not part of it
		"e.md": note("e"), // cites itself
	}
	b, err := okf.Load(fsys, okf.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	r := Build(b, Options{Now: fixtureNow})
	want := [][]string{{"a", "b", "c", "a"}, {"e", "e"}}
	if !slices.EqualFunc(r.Cycles, want, slices.Equal) {
		t.Errorf("cycles = %q, want %q", r.Cycles, want)
	}
	for id, in := range map[string]bool{"a": true, "b": true, "c": true, "d": false, "e": true} {
		if got := concept(t, r, id).InCycle; got != in {
			t.Errorf("%s in cycle = %v, want %v", id, got, in)
		}
	}
}
