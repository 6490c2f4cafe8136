package okf

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/okf-tools/okf/internal/sqllex"
)

func loadValid(t *testing.T) *Bundle {
	t.Helper()
	b, err := LoadDir(filepath.Join("..", "testdata", "bundles", "valid"), LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(b.Diagnostics) != 0 {
		t.Fatalf("valid bundle has diagnostics: %v", b.Diagnostics)
	}
	return b
}

func concept(t *testing.T, b *Bundle, id string) *Concept {
	t.Helper()
	c := b.Concept(id)
	if c == nil {
		t.Fatalf("no concept %q", id)
	}
	return c
}

func pos(path string, line, col int) Position {
	return Position{Path: path, Line: int32(line), Col: int32(col)}
}

func mustTime(s string) time.Time {
	t, err := time.Parse(time.RFC3339, s)
	if err != nil {
		panic(err)
	}
	return t.UTC()
}

func TestLoadValidBundleStructure(t *testing.T) {
	b := loadValid(t)
	var ids []string
	for _, c := range b.Concepts {
		ids = append(ids, c.ID)
	}
	want := "computations/orders-count computations/revenue metrics/churn metrics/margin-legacy metrics/revenue playbooks/revenue-alert playbooks/run-on-sqlite tables/orders"
	if got := strings.Join(ids, " "); got != want {
		t.Errorf("concepts %q, want %q (sorted by ID, reserved files and .py excluded)", got, want)
	}
	var idx []string
	for _, x := range b.Indexes {
		idx = append(idx, x.Path)
	}
	if got := strings.Join(idx, " "); got != "attesters/index.md computations/index.md index.md metrics/index.md playbooks/index.md tables/index.md" {
		t.Errorf("indexes %q", got)
	}
	if len(b.Logs) != 1 || b.Logs[0].Path != "log.md" {
		t.Fatalf("logs %+v", b.Logs)
	}
	if v := b.OKFVersion(); v.Text() != "0.2" || v.Pos != pos("index.md", 2, 14) {
		t.Errorf("okf_version %+v", v)
	}
	if ok, dir := b.Stat("attesters/sql_equality.py"); !ok || dir {
		t.Errorf("attester file not in the file set")
	}
	if ok, dir := b.Stat("tables"); !ok || !dir {
		t.Errorf("tables folder not in the file set")
	}
}

func TestAccessorsRecommendedFields(t *testing.T) {
	c := concept(t, loadValid(t), "tables/orders")
	fm := c.Frontmatter
	p := "tables/orders.md"
	if fm.Type.Text() != "SQLite Table" || !fm.Type.IsString() || fm.Type.Pos != pos(p, 2, 7) {
		t.Errorf("type %+v", fm.Type)
	}
	if fm.Title.Text() != "Customer orders" || fm.Title.Pos != pos(p, 3, 8) {
		t.Errorf("title %+v", fm.Title)
	}
	if fm.Description.Text() != "One row per completed customer order across all channels." || fm.Description.Pos != pos(p, 4, 14) {
		t.Errorf("description %+v", fm.Description)
	}
	if fm.Resource.Text() != "sqlite:///warehouse.db#orders" || fm.Resource.Pos != pos(p, 5, 11) {
		t.Errorf("resource %+v", fm.Resource)
	}
	if fm.Tags.Kind != Sequence || len(fm.Tags.Items) != 2 || fm.Tags.Items[1].Text() != "orders" || fm.Tags.Items[1].Pos != pos(p, 6, 15) {
		t.Errorf("tags %+v", fm.Tags)
	}
	if k, ok := fm.Key("owner"); !ok || k.Value.Text() != "data-platform" || k.Pos != pos(p, 25, 1) {
		t.Errorf("unknown key owner not kept: %+v", k)
	}
	if got := fm.KeyPos("stale_after"); got != pos(p, 11, 1) {
		t.Errorf("stale_after key at %v", got)
	}
	var names []string
	for _, k := range fm.Keys {
		names = append(names, k.Name)
	}
	if got := strings.Join(names, ","); got != "type,title,description,resource,tags,generated,verified,stale_after,sources,usage_window,owner" {
		t.Errorf("keys in written order: %s", got)
	}
}

func TestAccessorsSources(t *testing.T) {
	c := concept(t, loadValid(t), "tables/orders")
	fm := c.Frontmatter
	p := "tables/orders.md"
	if len(fm.Sources.Items) != 2 {
		t.Fatalf("sources %+v", fm.Sources)
	}
	s := fm.Sources.Items[0]
	if s.ID.Text() != "orders-schema" || s.ID.Pos != pos(p, 13, 9) {
		t.Errorf("id %+v", s.ID)
	}
	if s.Resource.Text() != "https://wiki.acme.example/warehouse/orders" || s.Title.Text() != "Orders table schema" || s.Author.Text() != "team:data-platform" {
		t.Errorf("source %+v", s)
	}
	if n, ok := s.UsageCount.Int(); !ok || n != 1200 {
		t.Errorf("usage_count %+v", s.UsageCount)
	}
	if s.LastModified.Form != Full || !s.LastModified.Time.Equal(mustTime("2026-05-30T00:00:00Z")) || s.LastModified.Pos != pos(p, 18, 20) {
		t.Errorf("last_modified %+v", s.LastModified)
	}
	if s.UsageWindow != nil {
		t.Errorf("first source has no window of its own")
	}
	s2 := fm.Sources.Items[1]
	if s2.Resource.Text() != "all queries against warehouse.orders in June 2026" {
		t.Errorf("scope descriptor %+v", s2.Resource)
	}
	if s2.UsageWindow == nil || !s2.UsageWindow.To.Time.Equal(mustTime("2026-06-30T23:59:59Z")) {
		t.Errorf("per-source window %+v", s2.UsageWindow)
	}
	w := fm.UsageWindow()
	if w == nil || !w.From.Time.Equal(mustTime("2026-05-01T00:00:00Z")) || w.From.Pos != pos(p, 24, 23) {
		t.Errorf("usage_window %+v", w)
	}
}

func TestAccessorsTrust(t *testing.T) {
	b := loadValid(t)
	orders := concept(t, b, "tables/orders").Frontmatter
	p := "tables/orders.md"
	if g := orders.Generated; g == nil || g.By.Text() != "reference_agent/gemini-2.5-pro" || g.By.Pos != pos(p, 7, 18) || !g.At.Time.Equal(mustTime("2026-06-10T08:00:00Z")) {
		t.Errorf("generated %+v", orders.Generated)
	}
	v := orders.Verified
	if v.Shape != VerifiedList || len(v.Entries) != 2 || v.Entries[1].By.Text() != "process:schema-nightly" {
		t.Fatalf("verified list %+v", v)
	}
	// +02:00 is kept as the instant it names.
	if !v.Entries[1].At.Time.Equal(mustTime("2026-07-02T00:00:00Z")) || v.Entries[1].At.Pos != pos(p, 10, 39) {
		t.Errorf("offset timestamp %+v", v.Entries[1].At)
	}
	if TierOf(v) != HumanReviewed {
		t.Errorf("orders tier %v", TierOf(v))
	}
	if last, ok := LastVerified(v); !ok || last.By.Text() != "process:schema-nightly" {
		t.Errorf("last verified %+v", last)
	}
	// A bare mapping is a one-element list (§5.2).
	rev := concept(t, b, "metrics/revenue").Frontmatter
	if rev.Verified.Shape != VerifiedMapping || len(rev.Verified.Entries) != 1 || rev.Verified.Entries[0].By.Text() != "human:ahormati" {
		t.Errorf("bare mapping %+v", rev.Verified)
	}
	churn := concept(t, b, "metrics/churn").Frontmatter
	if TierOf(churn.Verified) != MachineConfirmed {
		t.Errorf("churn tier %v, want machine-confirmed", TierOf(churn.Verified))
	}
	alert := concept(t, b, "playbooks/revenue-alert").Frontmatter
	if alert.Verified.Shape != VerifiedAbsent || TierOf(alert.Verified) != Unverified {
		t.Errorf("alert verified %+v", alert.Verified)
	}
	// revenue: generated 2026-06-20, verified 2026-06-25: not changed since.
	if ChangedSinceVerified(rev) {
		t.Errorf("revenue changed since verified")
	}
}

func TestAccessorsLifecycle(t *testing.T) {
	b := loadValid(t)
	now := mustTime("2026-11-30T00:00:00Z")
	for id, want := range map[string]struct {
		status Status
		stale  bool
	}{
		"metrics/revenue":       {Stable, false},
		"metrics/churn":         {Draft, false},
		"metrics/margin-legacy": {Deprecated, true},
		"tables/orders":         {Stable, false}, // no status: stable (§5.4)
	} {
		fm := concept(t, b, id).Frontmatter
		s, known := StatusOf(fm.Status)
		if s != want.status || !known {
			t.Errorf("%s: status %v known=%v, want %v", id, s, known, want.status)
		}
		if f := FreshnessOf(fm.StaleAfter(), now, DefaultExpiringWindow); f.Stale != want.stale {
			t.Errorf("%s: stale %v, want %v", id, f.Stale, want.stale)
		}
	}
	rev := concept(t, b, "metrics/revenue").Frontmatter
	if rev.StaleAfter().Pos != pos("metrics/revenue.md", 9, 14) || rev.Status.Pos != pos("metrics/revenue.md", 6, 9) {
		t.Errorf("positions %v %v", rev.StaleAfter().Pos, rev.Status.Pos)
	}
}

func TestAccessorsAttestedComputation(t *testing.T) {
	c := concept(t, loadValid(t), "computations/revenue")
	fm := c.Frontmatter
	p := "computations/revenue.md"
	if fm.Runtime().Text() != "sqlite" || fm.Runtime().Pos != pos(p, 7, 10) {
		t.Errorf("runtime %+v", fm.Runtime())
	}
	if len(fm.Parameters().Items) != 1 {
		t.Fatalf("parameters %+v", fm.Parameters())
	}
	par := fm.Parameters().Items[0]
	if par.Name.Text() != "year" || par.Type.Text() != "integer" || par.Name.Pos != pos(p, 9, 13) {
		t.Errorf("parameter %+v", par)
	}
	if req, ok := par.Required.Bool(); !ok || !req {
		t.Errorf("required %+v", par.Required)
	}
	if fm.Computation().Present() {
		t.Errorf("computation path should be absent")
	}
	if fm.Executor() == nil || fm.Executor().Resource.Text() != "/playbooks/run-on-sqlite.md" || len(fm.Executor().Receipt.Items) != 3 || fm.Executor().Receipt.Items[2].Text() != "result" {
		t.Errorf("executor %+v", fm.Executor())
	}
	if fm.Attester() == nil || fm.Attester().Resource.Text() != "/attesters/sql_equality.py" || fm.Attester().Resource.Pos != pos(p, 14, 13) {
		t.Errorf("attester %+v", fm.Attester())
	}
	if len(c.Body.CodeBlocks) != 1 {
		t.Fatalf("code blocks %+v", c.Body.CodeBlocks)
	}
	cb := c.Body.CodeBlocks[0]
	if !cb.Fenced || cb.Info != "sql" || cb.Section != "Computation" || cb.Pos != pos(p, 26, 1) {
		t.Errorf("code block %+v", cb)
	}
	if cb.Content != "SELECT SUM(amount) AS revenue\nFROM orders\nWHERE fiscal_year = @year\n" {
		t.Errorf("content %q", cb.Content)
	}
}

// TestAccessorsComputationFile covers the `computation` path form (§10.3) and a builtin attester.
func TestAccessorsComputationFile(t *testing.T) {
	b := loadValid(t)
	c := concept(t, b, "computations/orders-count")
	fm := c.Frontmatter
	p := "computations/orders-count.md"
	if fm.Computation().Text() != "/computations/sql/orders-by-year.sql" || fm.Computation().Pos != pos(p, 8, 14) {
		t.Errorf("computation %+v", fm.Computation())
	}
	r := b.ResolvePath(c.Path, fm.Computation().Text())
	if !r.Exists || r.Target != "computations/sql/orders-by-year.sql" {
		t.Errorf("computation path resolves to %+v", r)
	}
	data, err := b.ReadFile(r.Target)
	if err != nil {
		t.Fatal(err)
	}
	phs := sqllex.Placeholders(string(data), fm.Runtime().Text())
	if len(phs) != 1 || phs[0].Name != "year" {
		t.Errorf("placeholders %+v (the one in the comment line must not count)", phs)
	}
	if len(ComputationBlocks(c)) != 0 {
		t.Errorf("no inline computation expected")
	}
	if fm.Attester().Resource.Text() != "builtin:sql-equality" || b.ResolvePath(c.Path, fm.Attester().Resource.Text()).Kind != RefExternal {
		t.Errorf("builtin attester %+v", fm.Attester())
	}
	if fm.Verified.Shape != VerifiedAbsent {
		t.Errorf("verified %+v", fm.Verified)
	}
}

// TestAccessorLegacyTimestamp covers the v0.1 `timestamp` (§13.1), which the v0.2 valid bundle
// does not use.
func TestAccessorLegacyTimestamp(t *testing.T) {
	c, _ := ParseConcept("old.md", []byte("---\ntype: Metric\ntimestamp: '2026-05-28T22:53:05+00:00'\n---\n# Citations\n\n- https://wiki.example/a\n- [Policy](https://wiki.example/b)\n"))
	fm := c.Frontmatter
	if fm.LegacyTimestamp.Form != Full || !fm.LegacyTimestamp.Time.Equal(mustTime("2026-05-28T22:53:05Z")) || fm.LegacyTimestamp.Pos != pos("old.md", 3, 12) {
		t.Errorf("timestamp %+v", fm.LegacyTimestamp)
	}
	if at, legacy := GeneratedAt(fm); !legacy || !at.Time.Equal(fm.LegacyTimestamp.Time) {
		t.Errorf("GeneratedAt %+v %v", at, legacy)
	}
	cit := c.Body.Citations
	if len(cit) != 2 || cit[0].Target != "https://wiki.example/a" || cit[1].Target != "https://wiki.example/b" || cit[1].Text != "Policy" || cit[0].Pos != pos("old.md", 7, 1) {
		t.Errorf("citations %+v", cit)
	}
}

func TestBody(t *testing.T) {
	c := concept(t, loadValid(t), "metrics/revenue")
	p := "metrics/revenue.md"
	body := c.Body
	if len(body.Headings) != 1 || body.Headings[0].Text != "Definition" || body.Headings[0].Pos != pos(p, 21, 1) {
		t.Errorf("headings %+v", body.Headings)
	}
	wantLinks := []Link{
		{Target: "../tables/orders.md", Text: "orders", Pos: pos(p, 23, 43)},
		{Target: "/computations/revenue.md", Text: "the revenue computation", Pos: pos(p, 24, 28)},
	}
	if len(body.Links) != len(wantLinks) {
		t.Fatalf("links %+v", body.Links)
	}
	for i, l := range wantLinks {
		if body.Links[i] != l {
			t.Errorf("link %d: %+v, want %+v", i, body.Links[i], l)
		}
	}
	wantRefs := []FootnoteRef{{Label: "orders", Defined: true, Pos: pos(p, 24, 6)}, {Label: "rev-policy", Defined: true, Pos: pos(p, 25, 20)}}
	if len(body.FootnoteRefs) != 2 || body.FootnoteRefs[0] != wantRefs[0] || body.FootnoteRefs[1] != wantRefs[1] {
		t.Errorf("refs %+v", body.FootnoteRefs)
	}
	if len(body.FootnoteDefs) != 2 || body.FootnoteDefs[0].Label != "rev-policy" || body.FootnoteDefs[0].Text != "Revenue recognition policy" || body.FootnoteDefs[0].Pos != pos(p, 27, 1) {
		t.Errorf("defs %+v", body.FootnoteDefs)
	}
}

// TestBodyHeadingLinks checks that a link inside a heading is a link like any other: indexes list
// concepts as `## [Orders](orders.md)`, and link checks must see it (§6.1, §8).
func TestBodyHeadingLinks(t *testing.T) {
	src := "---\ntype: Note\n---\n# See [orders](orders.md)\n\nSetext [lines](lines.md)\n---\n\nText [c](c.md).\n"
	c, diags := ParseConcept("a.md", []byte(src))
	if len(diags) != 0 {
		t.Fatalf("diagnostics %v", diags)
	}
	want := []Link{
		{Target: "orders.md", Text: "orders", Pos: pos("a.md", 4, 7)},
		{Target: "lines.md", Text: "lines", Pos: pos("a.md", 6, 8)},
		{Target: "c.md", Text: "c", Pos: pos("a.md", 9, 6)},
	}
	if len(c.Body.Links) != len(want) {
		t.Fatalf("links %+v, want %+v", c.Body.Links, want)
	}
	for i, l := range want {
		if c.Body.Links[i] != l {
			t.Errorf("link %d: %+v, want %+v", i, c.Body.Links[i], l)
		}
	}
	if len(c.Body.Headings) != 2 || c.Body.Headings[0].Text != "See orders" || c.Body.Headings[1].Text != "Setext lines" {
		t.Errorf("headings %+v", c.Body.Headings)
	}
}

// TestFrontmatterMergeKeys checks YAML merge keys as yaml.v3 reads them (D3): a `<<: *anchor`
// brings in the anchored mapping's keys, keys written in the mapping win, an earlier mapping of a
// merge list wins over a later one, merges nest, and `<<` itself is no key of the concept. Google's
// reference parser (PyYAML) reads them so too: a type that comes from a merge is a type.
func TestFrontmatterMergeKeys(t *testing.T) {
	src := "---\nbase: &b { type: Note, title: Base, status: draft }\nextra: &e { title: Extra, description: From extra. }\n" +
		"<<: [*b, *e]\ntitle: Own\ngenerated:\n  <<: { by: agent/x }\n  at: 2026-01-02T00:00:00Z\n---\n# A\n"
	c, diags := ParseConcept("a.md", []byte(src))
	if len(diags) != 0 {
		t.Fatalf("diagnostics %v", diags)
	}
	fm := c.Frontmatter
	if got := fm.Type.Text(); got != "Note" || fm.Type.Pos != pos("a.md", 2, 18) {
		t.Errorf("type %q at %v, want Note at 2:18 (merged from base)", got, fm.Type.Pos)
	}
	if got := fm.Title.Text(); got != "Own" {
		t.Errorf("title %q, want Own (written in the mapping wins over merged ones)", got)
	}
	if got := fm.Status.Text(); got != "draft" {
		t.Errorf("status %q, want draft", got)
	}
	if got := fm.Description.Text(); got != "From extra." {
		t.Errorf("description %q, want From extra. (from the second mapping of the list)", got)
	}
	if fm.Generated == nil || fm.Generated.By.Text() != "agent/x" || fm.Generated.At.Raw != "2026-01-02T00:00:00Z" {
		t.Errorf("generated %+v, want by agent/x (a nested merge) at 2026-01-02", fm.Generated)
	}
	var keys []string
	for _, k := range fm.Keys {
		keys = append(keys, k.Name)
	}
	if got, want := strings.Join(keys, " "), "base extra title generated type status description"; got != want {
		t.Errorf("keys %q, want %q", got, want)
	}
}

// TestFrontmatterAliasedMappings checks that a family written as an alias of a mapping anchored
// elsewhere in the frontmatter is read through the alias (D3: yaml.v3 reads `executor: *ex` as the
// anchored mapping), nested fields included.
func TestFrontmatterAliasedMappings(t *testing.T) {
	src := "---\ntype: Attested Computation\nx: &ex { resource: /s/run.md, receipt: [result] }\nexecutor: *ex\n" +
		"z: &at { resource: builtin:sql-equality }\nattester: *at\ns: &src { id: a, resource: https://a.example }\nsources: [*src]\n---\n# A\n"
	c, diags := ParseConcept("a.md", []byte(src))
	if len(diags) != 0 {
		t.Fatalf("diagnostics %v", diags)
	}
	fm := c.Frontmatter
	if fm.Executor() == nil || fm.Executor().Resource.Text() != "/s/run.md" || len(fm.Executor().Receipt.Items) != 1 {
		t.Errorf("executor %+v, want resource /s/run.md and one receipt field (through *ex)", fm.Executor())
	} else if fm.Executor().Resource.Pos != pos("a.md", 3, 20) {
		t.Errorf("executor.resource at %v, want 3:20 where it is written", fm.Executor().Resource.Pos)
	}
	if fm.Attester() == nil || fm.Attester().Resource.Text() != "builtin:sql-equality" {
		t.Errorf("attester %+v, want builtin:sql-equality (through *at)", fm.Attester())
	}
	if len(fm.Sources.Items) != 1 || fm.Sources.Items[0].ID.Text() != "a" || fm.Sources.Items[0].Resource.Text() != "https://a.example" {
		t.Errorf("sources %+v, want one entry with id a (through *src)", fm.Sources.Items)
	}
}

// TestPositionsMultiByte checks that columns count characters, not bytes, in frontmatter (yaml.v3)
// and body (goldmark offsets through the line index), and after a BOM.
func TestPositionsMultiByte(t *testing.T) {
	src := "\ufeff---\ntype: Métrique\ntitle: « Chiffre » d’affaires\ntags: [é, 日本語, z]\n---\n\n# Über\n\nVoir «[les commandes](/tables/orders.md)» et 日本[^src].\n\n    SELECT 1\n\n[^src]: Source\n"
	c, diags := ParseConcept("fr.md", []byte(src))
	if len(diags) != 0 {
		t.Fatalf("diagnostics %v", diags)
	}
	if !c.BOM {
		t.Errorf("BOM not seen")
	}
	fm := c.Frontmatter
	if fm.Tags.Items[2].Text() != "z" || fm.Tags.Items[2].Pos != pos("fr.md", 4, 16) {
		t.Errorf("tag z at %v, want 4:16", fm.Tags.Items[2].Pos)
	}
	if fm.Title.Pos != pos("fr.md", 3, 8) {
		t.Errorf("title at %v", fm.Title.Pos)
	}
	if len(c.Body.Links) != 1 || c.Body.Links[0].Pos != pos("fr.md", 9, 7) {
		t.Errorf("link %+v, want at 9:7", c.Body.Links)
	}
	if len(c.Body.FootnoteRefs) != 1 || c.Body.FootnoteRefs[0].Pos != pos("fr.md", 9, 48) {
		t.Errorf("footnote ref %+v, want at 9:48", c.Body.FootnoteRefs)
	}
	if len(c.Body.Headings) != 1 || c.Body.Headings[0].Text != "Über" || c.Body.Headings[0].Pos != pos("fr.md", 7, 1) {
		t.Errorf("heading %+v", c.Body.Headings)
	}
	if len(c.Body.CodeBlocks) != 1 || c.Body.CodeBlocks[0].Fenced || c.Body.CodeBlocks[0].Content != "SELECT 1\n" || c.Body.CodeBlocks[0].Section != "Über" {
		t.Errorf("indented code %+v", c.Body.CodeBlocks)
	}
	// Raw text and the re-read node agree with the typed values.
	n, err := fm.Node()
	if err != nil {
		t.Fatal(err)
	}
	if n.Content[0].Value != "type" || n.Content[1].Line != 2 || n.Content[1].Column != 7 {
		t.Errorf("node %+v", n.Content[1])
	}
}

// TestInvalidBundles checks that each small invalid bundle gives exactly its one failure, with the
// code and position decisions D2–D8 call for.
func TestInvalidBundles(t *testing.T) {
	want := map[string]string{
		"no-frontmatter":    "orders.md:1:1 OKF001",
		"unterminated":      "orders.md:1:1 OKF002",
		"bad-yaml":          "orders.md:3:1 OKF003",
		"duplicate-key":     "orders.md:4:1 OKF003",
		"no-type":           "orders.md:1:1 OKF004",
		"empty-type":        "orders.md:2:7 OKF005",
		"type-not-string":   "orders.md:2:7 OKF005",
		"not-utf8":          "orders.md:3:11 OKF006",
		"index-frontmatter": "tables/index.md:1:1 OKF007",
		"root-index-keys":   "index.md:3:1 OKF008",
		"log-heading":       "log.md:3:1 OKF009",
	}
	dirs, err := os.ReadDir(filepath.Join("..", "testdata", "bundles", "invalid"))
	if err != nil {
		t.Fatal(err)
	}
	if len(dirs) != len(want) {
		t.Errorf("%d invalid bundles, %d expectations", len(dirs), len(want))
	}
	for name, w := range want {
		t.Run(name, func(t *testing.T) {
			b, err := LoadDir(filepath.Join("..", "testdata", "bundles", "invalid", name), LoadOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if len(b.Diagnostics) != 1 {
				t.Fatalf("diagnostics %v, want one", b.Diagnostics)
			}
			d := b.Diagnostics[0]
			if got := d.Pos.String() + " " + d.Code; got != w || d.Severity != Error {
				t.Errorf("got %s (%v: %s), want %s error", got, d.Severity, d.Message, w)
			}
		})
	}
}

// TestLoadFS loads from an fs.FS: .okfignore (gitignore syntax), hidden files and folders, README.md
// as a concept, non-.md files, and loading going on past bad files.
func TestLoadFS(t *testing.T) {
	fsys := fstest.MapFS{
		".okfignore":            {Data: []byte("# drafts are not ready\ndrafts/\n*.tmp.md\n!keep.tmp.md\n/root-only.md\n")},
		"README.md":             {Data: []byte("# About\n")},
		"a.md":                  {Data: []byte("---\ntype: A\n---\n")},
		"bad.md":                {Data: []byte("---\ntype: [\n---\n")},
		"drafts/x.md":           {Data: []byte("no frontmatter")},
		"sub/scratch.tmp.md":    {Data: []byte("no frontmatter")},
		"sub/keep.tmp.md":       {Data: []byte("---\ntype: K\n---\n")},
		"sub/root-only.md":      {Data: []byte("---\ntype: R\n---\n")},
		"root-only.md":          {Data: []byte("ignored")},
		".hidden/secret.md":     {Data: []byte("ignored")},
		"sub/.draft.md":         {Data: []byte("ignored")},
		"data.json":             {Data: []byte("{}")},
		"sub/index.md":          {Data: []byte("* [Keep](keep.tmp.md) - Kept.\n")},
		"sub/deeper/concept.md": {Data: []byte("---\ntype: D\n---\n")},
	}
	b, err := Load(fsys, LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, c := range b.Concepts {
		ids = append(ids, c.ID)
	}
	if got := strings.Join(ids, " "); got != "README a bad sub/deeper/concept sub/keep.tmp sub/root-only" {
		t.Errorf("concepts %q", got)
	}
	if got := strings.Join(b.Ignored, " "); got != "drafts root-only.md sub/scratch.tmp.md" {
		t.Errorf("ignored %q", got)
	}
	var got []string
	for _, d := range b.Diagnostics {
		got = append(got, d.Pos.String()+" "+d.Code)
	}
	if s := strings.Join(got, ", "); s != "README.md:1:1 OKF001, bad.md:2:1 OKF003" {
		t.Errorf("diagnostics %s", s)
	}
	if !strings.Contains(b.Diagnostics[0].Message, ".okfignore") {
		t.Errorf("README message does not suggest .okfignore: %s", b.Diagnostics[0].Message)
	}
	if x := b.Indexes[0]; len(x.Sections) != 1 || x.Sections[0].Entries[0].Target != "keep.tmp.md" || x.Sections[0].Entries[0].Description != "Kept." {
		t.Errorf("index %+v", b.Indexes[0].Sections)
	}
}

// TestLoadOptionsIgnore checks the configuration's ignore list adds to .okfignore.
func TestLoadOptionsIgnore(t *testing.T) {
	fsys := fstest.MapFS{"a.md": {Data: []byte("x")}, "b/c.md": {Data: []byte("x")}}
	b, err := Load(fsys, LoadOptions{Ignore: []string{"a.md", "b/**"}})
	if err != nil {
		t.Fatal(err)
	}
	if len(b.Concepts) != 0 || len(b.Diagnostics) != 0 {
		t.Errorf("concepts %d diagnostics %v", len(b.Concepts), b.Diagnostics)
	}
}

// TestSymlinkOutside checks D5: a link leading outside the root is reported and never read; one
// inside is read.
func TestSymlinkOutside(t *testing.T) {
	outside := t.TempDir()
	if err := os.WriteFile(filepath.Join(outside, "secret.md"), []byte("no frontmatter"), 0o644); err != nil {
		t.Fatal(err)
	}
	root := t.TempDir()
	if err := os.WriteFile(filepath.Join(root, "real.md"), []byte("---\ntype: R\n---\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(outside, "secret.md"), filepath.Join(root, "leak.md")); err != nil {
		t.Skip("symlinks not supported:", err)
	}
	if err := os.Symlink("real.md", filepath.Join(root, "alias.md")); err != nil {
		t.Fatal(err)
	}
	b, err := LoadDir(root, LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	// An ignored link is not reported, wherever it leads.
	if ib, err := LoadDir(root, LoadOptions{Ignore: []string{"leak.md"}}); err != nil || len(ib.Diagnostics) != 0 || len(ib.Ignored) != 1 {
		t.Errorf("ignored link: %v %v %v", err, ib.Diagnostics, ib.Ignored)
	}
	if len(b.Diagnostics) != 1 || b.Diagnostics[0].Code != CodeSymlinkOutside || b.Diagnostics[0].Pos.Path != "leak.md" || b.Diagnostics[0].Severity != Warning {
		t.Fatalf("diagnostics %v", b.Diagnostics)
	}
	if len(b.Concepts) != 2 || b.Concepts[0].ID != "alias" || !b.Concepts[0].Conformant() {
		t.Errorf("concepts %+v", b.Concepts)
	}
}

func TestLoadDirNotABundle(t *testing.T) {
	if _, err := LoadDir(filepath.Join(t.TempDir(), "missing"), LoadOptions{}); err == nil {
		t.Fatal("no error for a missing root")
	}
	f := filepath.Join(t.TempDir(), "file.md")
	os.WriteFile(f, []byte("x"), 0o644)
	if _, err := LoadDir(f, LoadOptions{}); err == nil {
		t.Fatal("no error for a file as root")
	}
}

// TestComments checks HTML comments are found, with positions, as block, inline, multi-line and
// list-nested comments: inline lint directives live there.
func TestComments(t *testing.T) {
	src := "---\ntype: X\n---\n<!-- okf-lint-disable A -->\n\ntext <!-- inline B --> more\n\n<!--\nmulti C\n-->\n\n- item\n  <!-- in list D -->\n  <!-- and E\n  over two lines -->\n"
	c, _ := ParseConcept("x.md", []byte(src))
	want := []Comment{
		{Text: "okf-lint-disable A", Pos: pos("x.md", 4, 1), EndLine: 4},
		{Text: "inline B", Pos: pos("x.md", 6, 6), EndLine: 6},
		{Text: "multi C", Pos: pos("x.md", 8, 1), EndLine: 10},
		{Text: "in list D", Pos: pos("x.md", 13, 3), EndLine: 13},
		{Text: "and E\nover two lines", Pos: pos("x.md", 14, 3), EndLine: 15}, // the list indentation is not part of the text
	}
	if len(c.Body.Comments) != len(want) {
		t.Fatalf("comments %+v", c.Body.Comments)
	}
	for i, w := range want {
		if c.Body.Comments[i] != w {
			t.Errorf("comment %d: %+v, want %+v", i, c.Body.Comments[i], w)
		}
	}
}

// A file saved with classic Mac OS line ends (a lone CR each) is one line to okf, as to the
// reference parser (D2), so it has no frontmatter; the finding says why, instead of saying the
// file does not begin with a --- line beside a first line that shows one. CRLF ends and a CR
// before spaces are not that: the first reads, the second is an ordinary missing frontmatter.
func TestLoneCRLineEnds(t *testing.T) {
	for _, tc := range []struct {
		src  string
		want string // the OKF001 message's start; "" for none
	}{
		{"---\rtype: Note\rtitle: A\r---\r# A\r", "no frontmatter: the file's lines end in a lone carriage return"},
		{"\ufeff  --- \rtype: Note\r---\r", "no frontmatter: the file's lines end in a lone carriage return"},
		{"---\r\ntype: Note\r\n---\r\n# A\r\n", ""},
		{"# A\rtext\r", "no frontmatter: a concept must begin with a --- line"},
		{"---\r", "frontmatter opened on line 1 is never closed"},
	} {
		b, err := Load(fstest.MapFS{"a.md": {Data: []byte(tc.src)}}, LoadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		got := ""
		for _, d := range b.Diagnostics {
			got += d.Message + "\n"
		}
		if tc.want == "" && got != "" || !strings.HasPrefix(got, tc.want) {
			t.Errorf("%q: %s, want %q…", tc.src, got, tc.want)
		}
	}
}
