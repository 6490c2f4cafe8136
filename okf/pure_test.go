package okf

import (
	"math/rand/v2"
	"strings"
	"testing"
	"testing/fstest"
	"time"
)

func TestParseTimestamp(t *testing.T) {
	tests := []struct {
		raw  string
		form TimeForm
		want string // RFC 3339 in UTC, "" for none
	}{
		{"2026-06-30T14:00:00Z", Full, "2026-06-30T14:00:00Z"},
		{"2026-06-30T14:00:00.250Z", Full, "2026-06-30T14:00:00.25Z"},
		{"2026-06-30T16:00:00+02:00", Full, "2026-06-30T14:00:00Z"},
		{"2026-06-30t14:00:00z", Full, "2026-06-30T14:00:00Z"},
		{"2026-06-30 14:00:00+00:00", Full, "2026-06-30T14:00:00Z"},
		{"2026-06-30T14:00Z", Full, "2026-06-30T14:00:00Z"},
		{"2026-06-30", DateOnly, "2026-06-30T00:00:00Z"},
		{"2026-06-30T14:00:00", NoOffset, "2026-06-30T14:00:00Z"},
		{"2026-06-30 14:00", NoOffset, "2026-06-30T14:00:00Z"},
		{"", Empty, ""},
		{"  ", Empty, ""},
		{"yesterday", Invalid, ""},
		{"2026-13-01", Invalid, ""},
		{"30/06/2026", Invalid, ""},
	}
	for _, tt := range tests {
		got, form := ParseTimestamp(tt.raw)
		if form != tt.form {
			t.Errorf("%q: form %v, want %v", tt.raw, form, tt.form)
			continue
		}
		if tt.want == "" {
			if !got.IsZero() {
				t.Errorf("%q: time %v, want none", tt.raw, got)
			}
			continue
		}
		if s := got.Format(time.RFC3339Nano); s != tt.want {
			t.Errorf("%q: %s, want %s", tt.raw, s, tt.want)
		}
	}
}

func TestParseNow(t *testing.T) {
	if got, err := ParseNow("2026-11-30"); err != nil || !got.Equal(mustTime("2026-11-30T00:00:00Z")) {
		t.Errorf("bare date: %v %v", got, err)
	}
	if got, err := ParseNow("2026-11-30T12:00:00+01:00"); err != nil || !got.Equal(mustTime("2026-11-30T11:00:00Z")) {
		t.Errorf("offset: %v %v", got, err)
	}
	if _, err := ParseNow("2026-11-30T12:00:00"); err == nil {
		t.Errorf("offset-less --now accepted")
	}
	if _, err := ParseNow("soon"); err == nil {
		t.Errorf("garbage accepted")
	}
	env := func(k string) string {
		if k == "OKF_NOW" {
			return "2027-01-15T00:00:00Z"
		}
		return ""
	}
	if got, _ := ResolveNow("", env); !got.Equal(mustTime("2027-01-15T00:00:00Z")) {
		t.Errorf("OKF_NOW not used: %v", got)
	}
	if got, _ := ResolveNow("2026-01-01", env); !got.Equal(mustTime("2026-01-01T00:00:00Z")) {
		t.Errorf("flag does not win over OKF_NOW: %v", got)
	}
}

// frontmatterOf parses a frontmatter block for tests.
func frontmatterOf(t *testing.T, yaml string) *Frontmatter {
	t.Helper()
	c, diags := ParseConcept("t.md", []byte("---\n"+yaml+"---\n"))
	if len(diags) != 0 {
		t.Fatalf("diagnostics %v", diags)
	}
	return c.Frontmatter
}

// TestTiers follows §5.3 and D12.
func TestTiers(t *testing.T) {
	tests := []struct {
		name  string
		yaml  string
		shape VerifiedShape
		tier  Tier
	}{
		{"absent", "type: X\n", VerifiedAbsent, Unverified},
		{"bare human mapping", "type: X\nverified: { by: human:ana, at: 2026-06-25T09:00:00Z }\n", VerifiedMapping, HumanReviewed},
		{"bare process mapping", "type: X\nverified: { by: process:nightly, at: 2026-06-25T09:00:00Z }\n", VerifiedMapping, MachineConfirmed},
		{"list human and machine", "type: X\nverified:\n  - { by: process:nightly, at: 2026-06-26T02:00:00Z }\n  - { by: human:ana, at: 2026-06-25T09:00:00Z }\n", VerifiedList, HumanReviewed},
		{"list machine only", "type: X\nverified:\n  - { by: agent/1.0, at: 2026-06-26T02:00:00Z }\n  - { by: team:finance, at: 2026-06-25T09:00:00Z }\n", VerifiedList, MachineConfirmed},
		{"yes", "type: X\nverified: \"yes\"\n", VerifiedInvalid, Unverified},
		{"true", "type: X\nverified: true\n", VerifiedInvalid, Unverified},
		{"list of strings", "type: X\nverified: [human:ana]\n", VerifiedInvalid, Unverified},
		// One malformed item makes the whole list unverified (D12), even beside a human entry.
		{"list with one bare string", "type: X\nverified:\n  - human:ana\n  - { by: human:bo, at: 2026-06-25T09:00:00Z }\n", VerifiedInvalid, Unverified},
		{"entry without by", "type: X\nverified: { at: 2026-06-25T09:00:00Z }\n", VerifiedMapping, Unverified},
		{"empty list", "type: X\nverified: []\n", VerifiedList, Unverified},
		// Where the human entry stands in the list does not matter.
		{"human first", "type: X\nverified:\n  - { by: human:ana, at: 2026-06-25T09:00:00Z }\n  - { by: process:a, at: 2026-06-26T02:00:00Z }\n  - { by: agent/1, at: 2026-06-27T02:00:00Z }\n", VerifiedList, HumanReviewed},
		{"human middle", "type: X\nverified:\n  - { by: process:a, at: 2026-06-26T02:00:00Z }\n  - { by: human:ana, at: 2026-06-25T09:00:00Z }\n  - { by: agent/1, at: 2026-06-27T02:00:00Z }\n", VerifiedList, HumanReviewed},
		{"human last", "type: X\nverified:\n  - { by: process:a, at: 2026-06-26T02:00:00Z }\n  - { by: agent/1, at: 2026-06-27T02:00:00Z }\n  - { by: human:ana, at: 2026-06-25T09:00:00Z }\n", VerifiedList, HumanReviewed},
		// Only the exact "human:" prefix with an id names a person (§7, D12): look-alikes are other
		// actors, so the entry counts as a non-human confirmation.
		{"humans/1.0 is an agent", "type: X\nverified: { by: humans/1.0, at: 2026-06-25T09:00:00Z }\n", VerifiedMapping, MachineConfirmed},
		{"human-ish prefix", "type: X\nverified: { by: humanoid:bob, at: 2026-06-25T09:00:00Z }\n", VerifiedMapping, MachineConfirmed},
		{"Human: capitalised", "type: X\nverified: { by: \"Human:ana\", at: 2026-06-25T09:00:00Z }\n", VerifiedMapping, MachineConfirmed},
		{"human: without id", "type: X\nverified: { by: \"human:\", at: 2026-06-25T09:00:00Z }\n", VerifiedMapping, MachineConfirmed},
		{"human: blank id", "type: X\nverified: { by: \"human:  \", at: 2026-06-25T09:00:00Z }\n", VerifiedMapping, MachineConfirmed},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fm := frontmatterOf(t, tt.yaml)
			if fm.Verified.Shape != tt.shape {
				t.Errorf("shape %v, want %v", fm.Verified.Shape, tt.shape)
			}
			if got := TierOf(fm.Verified); got != tt.tier {
				t.Errorf("tier %v, want %v", got, tt.tier)
			}
		})
	}
}

// TestVerifiedItems: every written entry is kept in Items, so lint checks the good entries of a list
// that holds a malformed one; Entries, which the tier reads, stays empty for such a list (D12).
func TestVerifiedItems(t *testing.T) {
	fm := frontmatterOf(t, "type: X\nverified:\n  - human:ana\n  - { by: human:bo, at: soon }\n  - { at: 2026-06-25T09:00:00Z }\n")
	v := fm.Verified
	if len(v.Entries) != 0 {
		t.Errorf("entries %d, want none for a malformed list", len(v.Entries))
	}
	if len(v.Items) != 3 {
		t.Fatalf("items %d, want 3", len(v.Items))
	}
	if v.Items[0].Kind != Scalar || v.Items[0].Raw != "human:ana" || v.Items[0].By.Present() {
		t.Errorf("item 0 %+v, want the bare string with no by", v.Items[0])
	}
	if v.Items[1].By.Raw != "human:bo" || v.Items[1].At.Form != Invalid || v.Items[1].Pos.Line != 5 {
		t.Errorf("item 1 %+v, want by human:bo, an invalid at, on line 5 (line 1 is the opening ---)", v.Items[1])
	}
	if v.Items[2].By.Present() || v.Items[2].At.Form == TimeAbsent {
		t.Errorf("item 2 %+v, want no by and an at", v.Items[2])
	}
	good := frontmatterOf(t, "type: X\nverified: { by: human:ana, at: 2026-06-25T09:00:00Z }\n").Verified
	if len(good.Items) != 1 || len(good.Entries) != 1 {
		t.Errorf("bare mapping: %d items, %d entries, want 1 and 1", len(good.Items), len(good.Entries))
	}
}

func TestChangedSinceVerified(t *testing.T) {
	tests := []struct {
		yaml string
		want bool
	}{
		{"generated: { by: a/1, at: 2026-07-01T00:00:00Z }\nverified: { by: human:x, at: 2026-06-30T00:00:00Z }\n", true},
		{"generated: { by: a/1, at: 2026-06-01T00:00:00Z }\nverified: { by: human:x, at: 2026-06-30T00:00:00Z }\n", false},
		// The latest verification counts.
		{"generated: { by: a/1, at: 2026-07-01T00:00:00Z }\nverified:\n  - { by: human:x, at: 2026-06-01T00:00:00Z }\n  - { by: process:y, at: 2026-07-02T00:00:00Z }\n", false},
		// Not verified: nothing to have changed since.
		{"generated: { by: a/1, at: 2026-07-01T00:00:00Z }\n", false},
		// The legacy timestamp stands in for generated.at (§13.1).
		{"timestamp: '2026-07-01T00:00:00+00:00'\nverified: { by: human:x, at: 2026-06-30T00:00:00Z }\n", true},
	}
	for _, tt := range tests {
		fm := frontmatterOf(t, "type: X\n"+tt.yaml)
		if got := ChangedSinceVerified(fm); got != tt.want {
			t.Errorf("%q: %v, want %v", tt.yaml, got, tt.want)
		}
	}
}

func TestStatusOf(t *testing.T) {
	for raw, want := range map[string]struct {
		s     Status
		known bool
	}{"": {Stable, true}, "status: draft\n": {Draft, true}, "status: stable\n": {Stable, true}, "status: deprecated\n": {Deprecated, true}, "status: active\n": {Stable, false}, "status: [x]\n": {Stable, false}} {
		fm := frontmatterOf(t, "type: X\n"+raw)
		if s, known := StatusOf(fm.Status); s != want.s || known != want.known {
			t.Errorf("%q: %v %v, want %v %v", raw, s, known, want.s, want.known)
		}
	}
}

// TestFreshness follows §5.5 and D11: stale when now >= stale_after; expiring within the window.
func TestFreshness(t *testing.T) {
	now := mustTime("2026-11-30T00:00:00Z")
	day := 24 * time.Hour
	tests := []struct {
		raw             string
		stale, expiring bool
		approx          bool
	}{
		{"2026-11-30T00:00:00Z", true, false, false}, // exactly at now: stale
		{"2026-11-29T23:59:59Z", true, false, false},
		{"2026-11-30T00:00:01Z", false, true, false},
		{"2026-12-30T00:00:00Z", false, true, false}, // exactly 30 days: inside the window
		{"2026-12-30T00:00:01Z", false, false, false},
		{"2026-11-30", true, false, true}, // date-only: 00:00 UTC of that day
		{"2026-12-01T00:00:00", false, true, true},
		{"", false, false, false},
		{"never", false, false, false},
	}
	for _, tt := range tests {
		f := FreshnessOf(timestampOf(Value{Kind: Scalar, Tag: "!!str", Raw: tt.raw}), now, 30*day)
		if f.Stale != tt.stale || f.Expiring != tt.expiring || f.Approximate != tt.approx {
			t.Errorf("%q: %+v, want stale=%v expiring=%v approx=%v", tt.raw, f, tt.stale, tt.expiring, tt.approx)
		}
	}
	if f := FreshnessOf(timestampOf(Value{Kind: Scalar, Raw: "2026-12-05T00:00:00Z"}), now, 0); f.Expiring {
		t.Errorf("window 0 must disable expiring")
	}
}

func TestClassifyActor(t *testing.T) {
	for s, want := range map[string]ActorKind{
		"human:ahormati":                 ActorHuman,
		"process:finance-nightly":        ActorProcess,
		"reference_agent/gemini-2.5-pro": ActorAgent,
		"team:finance":                   ActorTeam,
		"human:":                         ActorUnknown,
		"ahormati":                       ActorUnknown,
		"https://x.example/a":            ActorUnknown,
		"":                               ActorUnknown,
		"agent/":                         ActorUnknown,
	} {
		if got := ClassifyActor(s); got != want {
			t.Errorf("%q: %v, want %v", s, got, want)
		}
	}
}

type mapFiles map[string]bool

func (m mapFiles) Stat(p string) (bool, bool) { d, ok := m[p]; return ok, d }

// TestResolvePath follows D14.
func TestResolvePath(t *testing.T) {
	files := mapFiles{"tables": true, "tables/orders.md": false, "skills/run.md": false, "metrics/skills/run.md": false, "attesters/a.py": false, "metrics/revenue.md": false}
	tests := []struct {
		from, value string
		want        Resolution
	}{
		{"metrics/revenue.md", "https://x.example/a", Resolution{Kind: RefExternal, Target: "https://x.example/a"}},
		{"metrics/revenue.md", "/tables/orders.md", Resolution{Kind: RefLocal, Target: "tables/orders.md", Exists: true}},
		{"metrics/revenue.md", "../tables/orders.md", Resolution{Kind: RefLocal, Target: "tables/orders.md", Exists: true}},
		// Own directory first…
		{"metrics/revenue.md", "skills/run.md", Resolution{Kind: RefLocal, Target: "metrics/skills/run.md", Exists: true}},
		// …then the root, flagged RootOnly.
		{"metrics/revenue.md", "attesters/a.py", Resolution{Kind: RefLocal, Target: "attesters/a.py", Exists: true, RootOnly: true}},
		{"metrics/revenue.md", "tables", Resolution{Kind: RefLocal, Target: "tables", Exists: true, IsDir: true, RootOnly: true}},
		// Not found anywhere: reported from the concept's directory.
		{"metrics/revenue.md", "all queries in project X", Resolution{Kind: RefLocal, Target: "metrics/all queries in project X"}},
		{"metrics/revenue.md", "../../etc/passwd", Resolution{Kind: RefLocal, Escapes: true}},
		{"metrics/revenue.md", "/../secret", Resolution{Kind: RefLocal, Escapes: true}},
		{"metrics/revenue.md", "  ", Resolution{Kind: RefEmpty}},
		{"metrics/revenue.md", "builtin:sql-equality", Resolution{Kind: RefExternal, Target: "builtin:sql-equality"}},
	}
	for _, tt := range tests {
		if got := ResolvePath(files, tt.from, tt.value); got != tt.want {
			t.Errorf("%q from %s: %+v, want %+v", tt.value, tt.from, got, tt.want)
		}
	}
}

// TestResolveLink follows D15.
func TestResolveLink(t *testing.T) {
	files := mapFiles{"tables": true, "tables/index.md": false, "tables/orders.md": false, "img/a b.png": false}
	tests := []struct {
		from, target string
		want         Resolution
	}{
		{"metrics/r.md", "https://x.example", Resolution{Kind: RefExternal, Target: "https://x.example"}},
		{"metrics/r.md", "mailto:a@b.example", Resolution{Kind: RefExternal, Target: "mailto:a@b.example"}},
		{"metrics/r.md", "#definition", Resolution{Kind: RefFragment}},
		{"metrics/r.md", "/tables/orders.md#schema", Resolution{Kind: RefLocal, Target: "tables/orders.md", Exists: true}},
		{"metrics/r.md", "../tables/orders.md?plain=1", Resolution{Kind: RefLocal, Target: "tables/orders.md", Exists: true}},
		{"metrics/r.md", "../tables/", Resolution{Kind: RefLocal, Target: "tables", Exists: true, IsDir: true}},
		{"metrics/r.md", "../img/a%20b.png", Resolution{Kind: RefLocal, Target: "img/a b.png", Exists: true}},
		// Relative links resolve from the file's directory only, as renderers do.
		{"metrics/r.md", "tables/orders.md", Resolution{Kind: RefLocal, Target: "metrics/tables/orders.md"}},
		{"r.md", "../outside.md", Resolution{Kind: RefLocal, Escapes: true}},
	}
	for _, tt := range tests {
		if got := ResolveLink(files, tt.from, tt.target); got != tt.want {
			t.Errorf("%q from %s: %+v, want %+v", tt.target, tt.from, got, tt.want)
		}
	}
}

func TestIgnore(t *testing.T) {
	ig := ParseIgnore([]byte("# comment\n\n*.draft.md\nbuild/\n/top.md\ndocs/**/private.md\n!keep.draft.md\n\\#hash.md\n"))
	tests := []struct {
		path  string
		dir   bool
		match bool
	}{
		{"a.draft.md", false, true},
		{"x/y/a.draft.md", false, true},
		{"x/keep.draft.md", false, false},
		{"build", true, true},
		{"x/build", true, true},
		{"build", false, false}, // dir-only pattern
		{"top.md", false, true},
		{"x/top.md", false, false}, // anchored
		{"docs/private.md", false, true},
		{"docs/a/b/private.md", false, true},
		{"#hash.md", false, true},
		{"other.md", false, false},
	}
	for _, tt := range tests {
		if got := ig.Match(tt.path, tt.dir); got != tt.match {
			t.Errorf("%s (dir=%v): %v, want %v", tt.path, tt.dir, got, tt.match)
		}
	}
}

func TestParseLogDate(t *testing.T) {
	tests := []struct {
		heading string
		ok      bool
		extra   string
	}{
		{"2026-06-13", true, ""},
		{"2026-06-13, Initial OKF v0.1 bundle", true, "Initial OKF v0.1 bundle"},
		{"2026-06-13 — release", true, "release"},
		{"June 13th", false, ""},
		{"2026-02-30", false, ""},
		{"2026-06-130", false, ""},
		{"2026-06-13T10:00:00Z", false, ""},
		{"26-06-13", false, ""},
		// §9: the heading is the date; a date later in the heading is not a date group (D8).
		{"Released 2026-06-13", false, ""},
		{"v2 — 2026-06-13", false, ""},
		{" 2026-06-13", true, ""},
	}
	for _, tt := range tests {
		_, extra, ok := ParseLogDate(tt.heading)
		if ok != tt.ok || extra != tt.extra {
			t.Errorf("%q: ok=%v extra=%q, want %v %q", tt.heading, ok, extra, tt.ok, tt.extra)
		}
	}
}

func TestLogAndIndexStructure(t *testing.T) {
	fsys := fstest.MapFS{
		"log.md":   {Data: []byte("---\ntype: Log\n---\n# History\n\nIntro prose.\n\n## 2026-07-01\n\n* **Update**: one.\n* two.\n\n## 2026-06-13, initial\n\nA paragraph entry.\n\n## Someday\n")},
		"index.md": {Data: []byte("# Tables\n\n* [Orders](tables/orders.md) - One row per order.\n* plain item\n\n# Metrics\n\n- [Revenue](metrics/revenue.md): Recognized revenue.\n")},
	}
	b, err := Load(fsys, LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	lg := b.Logs[0]
	if !lg.Frontmatter.Present || lg.Frontmatter.Type.Text() != "Log" {
		t.Errorf("log frontmatter %+v", lg.Frontmatter)
	}
	if len(lg.Groups) != 3 || len(lg.Groups[0].Entries) != 2 || lg.Groups[0].Entries[0].Text != "Update: one." || lg.Groups[1].Extra != "initial" || len(lg.Groups[1].Entries) != 1 || lg.Groups[2].Valid {
		t.Errorf("groups %+v", lg.Groups)
	}
	if len(lg.Stray) != 1 || lg.Stray[0] != pos("log.md", 6, 1) {
		t.Errorf("stray %v", lg.Stray)
	}
	if len(b.Diagnostics) != 1 || b.Diagnostics[0].Code != CodeLogHeading || b.Diagnostics[0].Pos != pos("log.md", 17, 1) {
		t.Errorf("diagnostics %v", b.Diagnostics)
	}
	x := b.Indexes[0]
	if len(x.Sections) != 2 || x.Sections[0].Heading != "Tables" || len(x.Sections[0].Entries) != 1 || x.Sections[1].Entries[0].Description != "Recognized revenue." || x.Sections[1].Entries[0].Pos != pos("index.md", 8, 1) {
		t.Errorf("index %+v", x.Sections)
	}
}

// TestParseWindow covers the "expiring soon" window of --expiring-within and expiring_within (D11).
func TestParseWindow(t *testing.T) {
	for in, want := range map[string]time.Duration{"30d": 30 * 24 * time.Hour, " 1d ": 24 * time.Hour, "0d": 0, "0": 0, "720h": 720 * time.Hour, "36h": 36 * time.Hour, "90m": 90 * time.Minute} {
		if got, err := ParseWindow(in); err != nil || got != want {
			t.Errorf("ParseWindow(%q) = %v, %v; want %v", in, got, err, want)
		}
	}
	for _, in := range []string{"", "d", "soon", "3w", "3x", "-5h", "-1d", "1.5d", "999999999d"} {
		if _, err := ParseWindow(in); err == nil {
			t.Errorf("ParseWindow(%q) accepted", in)
		}
	}
}

// parseTimestampEveryLayout is ParseTimestamp as it was before it went straight to the layouts that
// can match: every layout tried in order. The oracle of TestParseTimestampShortcuts.
func parseTimestampEveryLayout(raw string) (time.Time, TimeForm) {
	s := strings.TrimSpace(raw)
	if s == "" {
		return time.Time{}, Empty
	}
	norm := s
	if len(norm) > 10 && (norm[10] == 't') {
		norm = norm[:10] + "T" + norm[11:]
	}
	if strings.HasSuffix(norm, "z") {
		norm = norm[:len(norm)-1] + "Z"
	}
	for _, l := range fullLayouts {
		if t, err := time.Parse(l, norm); err == nil {
			return t.UTC(), Full
		}
	}
	for _, l := range []string{"2006-01-02T15:04:05.999999999-0700", "2006-01-02T15:04:05-07"} {
		if t, err := time.Parse(l, norm); err == nil {
			return t.UTC(), Full
		}
	}
	if t, err := time.Parse("2006-01-02", norm); err == nil {
		return t.UTC(), DateOnly
	}
	for _, l := range noOffsetLayouts {
		if t, err := time.Parse(l, norm); err == nil {
			return t.UTC(), NoOffset
		}
	}
	return time.Time{}, Invalid
}

// TestParseTimestampShortcuts: ParseTimestamp reads every string as trying every layout in order
// does, on random strings assembled from the pieces timestamps are made of (dates, separators,
// times, fractions, zones of every form, and noise).
func TestParseTimestampShortcuts(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	pick := func(ss ...string) string { return ss[r.IntN(len(ss))] }
	forms := map[TimeForm]int{}
	for i := range 50000 {
		s := pick("2026-06-30", "2026-6-30", "2026-13-01", "1999-12-31", "0000-01-01", "26-06-30", "2026-02-30", "")
		if r.IntN(5) > 0 {
			s += pick("T", "t", " ", "", "_", "TT")
			s += pick("14:00:00", "14:00", "1:00", "14:00:00.250", "14:00:00.", "25:00:00", "14:60", "14", "")
			s += pick("", "", "Z", "z", "+02:00", "-05:30", "+0200", "-07", "+02", "+2", "Z+01:00", "+02:00:00", "-", "x", " ")
		}
		if r.IntN(10) == 0 {
			s = pick(" ", "\t", "") + s + pick(" ", "\n", "")
		}
		wantT, wantF := parseTimestampEveryLayout(s)
		gotT, gotF := ParseTimestamp(s)
		if gotF != wantF || !gotT.Equal(wantT) || gotT.Location() != wantT.Location() {
			t.Fatalf("case %d: ParseTimestamp(%q) = %v, %v; every layout gives %v, %v", i, s, gotT, gotF, wantT, wantF)
		}
		forms[gotF]++
	}
	for _, f := range []TimeForm{Full, DateOnly, NoOffset, Empty, Invalid} {
		if forms[f] < 100 {
			t.Errorf("form %v came up %d times: the generator misses it", f, forms[f])
		}
	}
}
