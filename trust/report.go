// Package trust builds the reviewer's view of an OKF bundle: each concept's trust tier (§5.3, D12),
// status (§5.4, D13) and staleness (§5.5, D11), its provenance followed through the bundle (§5.1
// lineage), totals, a review queue, and what moved since a git revision. Every judgement comes from
// the shared functions of package okf; this package only gathers, orders and prints them.
package trust

import (
	"crypto/sha256"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"time"
	"unicode"

	"github.com/okf-tools/okf/internal/escape"
	"github.com/okf-tools/okf/internal/suggest"
	"github.com/okf-tools/okf/okf"
	"go.yaml.in/yaml/v3"
)

// Freshness values of a concept, as every format names them (D11).
const (
	FreshStale    = "stale"
	FreshExpiring = "expiring"
	FreshFresh    = "fresh"
	FreshNone     = "none" // no readable stale_after: never stale
)

// Options selects and judges. The zero value is not useful: Now must be set (okf.ResolveNow).
type Options struct {
	// Now is the clock every staleness judgement uses (D11).
	Now time.Time
	// ExpiringWithin is the "expiring soon" window after Now (D11); 0 disables it.
	ExpiringWithin time.Duration
	// Tiers, Statuses and Types keep only concepts with one of the values (empty: all).
	Tiers    []okf.Tier
	Statuses []okf.Status
	Types    []string
	// StaleOnly keeps only stale concepts.
	StaleOnly bool
	// Paths keeps only concepts whose path matches one of these gitignore-style patterns (the
	// syntax of .okfignore, D5), so one pattern language serves both.
	Paths []string
	// Scope keeps only the concepts below a folder (a slash path from the root ending in "/",
	// "sub/") or the one file it names: `okf trust sub` reads the whole bundle (links and lineage
	// resolve) and reports sub's concepts. Empty: the whole bundle. The report's Scope records it
	// for the header.
	Scope string
	// Builtins are the built-in attesters that can run (`builtin:NAME`, D18). nil takes every
	// builtin: name for runnable; the CLI passes the list package attest knows.
	Builtins []string
}

// Stamp is an actor and an instant as a report shows them. Approximate is true when the instant was
// written date-only or without an offset and was read conservatively (D10).
type Stamp struct {
	By          string    `json:"by,omitempty"`
	At          time.Time `json:"at,omitzero"`
	Approximate bool      `json:"approximate,omitempty"`
}

// Upstream is a concept this one derives from, directly or through a chain of sources (§5.1), that
// is unverified, stale or deprecated. Chain runs from this concept to the upstream one; it passes
// only through concepts that are not flagged themselves (a flagged one has its own row).
//
// Chain holds at most MaxChain IDs: a longer one keeps its first and last MaxChain/2, and Elided
// counts the hops left out between them.
type Upstream struct {
	ID      string   `json:"id"`
	Reasons []string `json:"reasons"`
	Chain   []string `json:"chain"`
	Elided  int      `json:"chain_elided,omitempty"`
}

// MaxChain and MaxUpstream bound lineage. Bound: a chain of n concepts each deriving from the
// previous one down to k flagged ones gave every concept all k upstreams with chains of up to n
// IDs, n²k in all (2,000 concepts: 78 MB of JSON); with them the report is linear in the bundle.
const (
	MaxChain    = 16
	MaxUpstream = 16
)

// hops is the chain's full length in IDs.
func (u Upstream) hops() int { return len(u.Chain) + u.Elided }

// chainText prints the chain, the elided hops as "… N more".
func (u Upstream) chainText() string {
	if u.Elided == 0 {
		return chainText(u.Chain)
	}
	h := len(u.Chain) / 2
	return chainText(u.Chain[:h]) + fmt.Sprintf(" -> … %d more -> ", u.Elided) + chainText(u.Chain[h:])
}

// Concept is one concept's row of the report.
type Concept struct {
	ID    string `json:"id"`
	Path  string `json:"path"`
	Dir   string `json:"dir"` // top-level directory, "." for the bundle root
	Type  string `json:"type"`
	Title string `json:"title,omitempty"`
	// Status is read per D13 (absent or unknown: stable).
	Status okf.Status `json:"status"`
	// Tier is derived from `verified` per D12.
	Tier okf.Tier `json:"tier"`
	// Verified is the latest counted verification (nil when there is none).
	Verified *Stamp `json:"verified,omitempty"`
	// Verifiers are the distinct actors of the counted `verified` entries, in the order written.
	Verifiers []string `json:"verifiers,omitempty"`
	// Generated is `generated` (or the legacy v0.1 `timestamp`, §13.1).
	Generated *Stamp `json:"generated,omitempty"`
	// StaleAfter is the readable `stale_after` (nil when absent or unreadable).
	StaleAfter *Stamp `json:"stale_after,omitempty"`
	// Freshness is stale, expiring, fresh or none (D11).
	Freshness            string `json:"freshness"`
	ChangedSinceVerified bool   `json:"changed_since_verified"`
	Sources              int    `json:"sources"`
	// UsedBy lists the concepts that cite this one in their sources or link to it.
	UsedBy []string `json:"used_by,omitempty"`
	// Runtime and Attester are shown for Attested Computations (§10.2).
	Runtime  string `json:"runtime,omitempty"`
	Attester string `json:"attester,omitempty"`
	// AttesterProblem says why an Attested Computation's attester is missing or cannot run (§10.2,
	// D17, D18); empty when it can run.
	AttesterProblem string `json:"attester_problem,omitempty"`
	// Touched is true, with --base, when the concept was added or its file changed since the base.
	Touched bool `json:"touched,omitempty"`
	// Upstream lists the flagged concepts this one derives from (§5.1 lineage).
	Upstream []Upstream `json:"upstream,omitempty"`
	// UpstreamMore counts the flagged upstreams past the MaxUpstream nearest listed in Upstream.
	UpstreamMore int `json:"upstream_more,omitempty"`
	// InCycle is true when the concept's sources lead back to itself.
	InCycle bool `json:"in_cycle,omitempty"`
	// Approximate is true when any timestamp used for this row was read conservatively (D10).
	Approximate bool `json:"approximate,omitempty"`
	// Notes say how odd values were read (D10, D12, D13).
	Notes []string `json:"notes,omitempty"`

	selected bool
	srcIDs   []string // bundle concepts this one derives from, sorted
	// The files its sources name and its links lead to (existing, in the bundle), until assemble
	// turns them into srcIDs and UsedBy: a row is made before the whole bundle is known.
	srcFiles, linkFiles []string
	// computation is true for an Attested Computation (okf.IsAttestedComputation).
	computation bool
	// contentEdited: with --base, the content changed under the same verification.
	contentEdited bool
}

// Totals counts concepts by tier, status and staleness.
type Totals struct {
	Concepts             int `json:"concepts"`
	HumanReviewed        int `json:"human_reviewed"`
	MachineConfirmed     int `json:"machine_confirmed"`
	Unverified           int `json:"unverified"`
	Stable               int `json:"stable"`
	Draft                int `json:"draft"`
	Deprecated           int `json:"deprecated"`
	Stale                int `json:"stale"`
	Expiring             int `json:"expiring"`
	Fresh                int `json:"fresh"`
	NoStaleAfter         int `json:"no_stale_after"`
	ChangedSinceVerified int `json:"changed_since_verified"`
	FlaggedLineage       int `json:"flagged_lineage"`
}

// DirTotals are the totals of one top-level directory ("." for concepts at the root).
type DirTotals struct {
	Dir string `json:"dir"`
	Totals
}

// QueueItem is one entry of the review queue: Rank is the first rule it met (see Ranks), Reasons
// every rule it meets, and the other fields the evidence for them.
type QueueItem struct {
	ID      string   `json:"id"`
	Rank    int      `json:"rank"`
	Reasons []string `json:"reasons"`
	// Touched: added or edited since the --base revision; such items come first.
	Touched bool `json:"touched,omitempty"`
	// UsedBy counts the concepts that cite or link to this one.
	UsedBy int `json:"used_by"`
	// StaleAfter is when the concept became (or becomes) stale, for the stale and expiring rules.
	StaleAfter *Stamp `json:"stale_after,omitempty"`
	// Verified is the latest counted verification, for the machine-confirmed and changed rules.
	Verified *Stamp `json:"verified,omitempty"`
	// Generated is the latest generation, for the changed-since-verified rule.
	Generated *Stamp `json:"generated,omitempty"`
	// Upstream is the nearest flagged concept this one derives from (rule 7), UpstreamMore how
	// many others there are.
	Upstream     *Upstream `json:"upstream,omitempty"`
	UpstreamMore int       `json:"upstream_more,omitempty"`
	// AttesterProblem is why the attester cannot run (rule 8).
	AttesterProblem string `json:"attester_problem,omitempty"`
	// ContentEdited: the body or content keys changed since --base under the same verification.
	ContentEdited bool `json:"content_edited,omitempty"`

	c     *Concept
	rules []int // indexes into Ranks, in order
}

// Ranks are the review-queue rules in order: a concept is queued under the first it meets, and
// within a rank the most used come first, then the oldest stale_after, then by ID. Deprecated
// concepts are never queued (§5.4: kept for history, no longer current); what derives from them
// is, under rank 7.
var Ranks = []string{
	1: "stale and used by other concepts",
	2: "stale",
	3: "machine-confirmed only",
	4: "unverified",
	5: "changed since verified",
	6: "expiring soon",
	7: "derives from an unverified, stale or deprecated concept",
	8: "attester missing or cannot run",
}

// Report is the whole reviewer's view.
type Report struct {
	// Version is the JSON schema version: fields are only added within a version.
	Version int `json:"version"`
	// Bundle names the bundle (bundleName): the root index's title where its declared version allows
	// one, else its first heading unless generic, else the folder's name.
	Bundle string `json:"bundle"`
	// Revision is the git revision of the checkout, when known (set by the caller, see Revision).
	Revision string `json:"revision,omitempty"`
	// Scope is the folder (or file) of the bundle the report is limited to (Options.Scope).
	Scope          string      `json:"scope,omitempty"`
	Now            time.Time   `json:"now"`
	ExpiringWithin string      `json:"expiring_within"`
	Totals         Totals      `json:"totals"`
	Directories    []DirTotals `json:"directories"`
	Queue          []QueueItem `json:"review_queue"`
	Concepts       []*Concept  `json:"concepts"`
	Cycles         [][]string  `json:"cycles"`
	Changes        *Changes    `json:"changes,omitempty"`
	Approximate    bool        `json:"approximate"`
	window         time.Duration
	all            map[string]*Concept
	bundle         *okf.Bundle
}

// FormatWindow prints a window the way --expiring-within reads it: whole days as "30d".
func FormatWindow(d time.Duration) string {
	if d <= 0 {
		return "0"
	}
	if d%(24*time.Hour) == 0 {
		return fmt.Sprintf("%dd", d/(24*time.Hour))
	}
	return d.String()
}

// Build makes the report of bundle b at opts.Now. Lineage and "used by" are computed over the whole
// bundle; the filters only choose which concepts are listed, counted and queued.
func Build(b *okf.Bundle, opts Options) *Report {
	return assemble(newReport(b, opts), b, rows(b, opts), opts)
}

// rows returns the row of every concept of b, in b.Concepts order.
func rows(b *okf.Bundle, opts Options) []*Concept {
	all := make([]*Concept, 0, len(b.Concepts))
	for _, c := range b.Concepts {
		all = append(all, row(b, c, opts))
	}
	return all
}

// newReport is a report with nothing in it yet.
func newReport(b *okf.Bundle, opts Options) *Report {
	return &Report{
		Version:        1,
		Now:            opts.Now.UTC(),
		ExpiringWithin: FormatWindow(opts.ExpiringWithin),
		window:         opts.ExpiringWithin,
		all:            map[string]*Concept{},
		bundle:         b,
		Cycles:         [][]string{},
		Queue:          []QueueItem{},
		Concepts:       []*Concept{},
	}
}

// assemble finishes the report from every concept's row (in b.Concepts order): what relates one
// concept to others (lineage, "used by") is resolved here, over the whole bundle.
func assemble(r *Report, b *okf.Bundle, all []*Concept, opts Options) *Report {
	for _, rc := range all {
		r.all[rc.ID] = rc
	}
	for _, rc := range all {
		rc.resolveSources(b)
	}
	r.Bundle = bundleName(b, all)
	r.Scope = opts.Scope
	usedBy(b, all, r.all)
	r.Cycles = lineage(all, r.all)

	sel := newSelector(opts)
	for _, c := range all {
		c.selected = sel.match(c)
		if c.selected {
			r.Concepts = append(r.Concepts, c)
			if c.Approximate {
				r.Approximate = true
			}
		}
	}
	r.Totals, r.Directories = totals(r.Concepts)
	r.Queue = queue(r.Concepts)
	return r
}

// row reads one concept's trust facts through okf's shared functions.
func row(b *okf.Bundle, c *okf.Concept, opts Options) *Concept {
	f := c.Frontmatter
	rc := &Concept{
		ID:    c.ID,
		Path:  c.Path,
		Dir:   topDir(c.Dir()),
		Type:  strings.TrimSpace(f.Type.Text()),
		Title: strings.TrimSpace(f.Title.Text()),
	}
	if !f.Present {
		rc.note("no readable frontmatter: not conformant (§11), reported as unverified")
	}

	status, known := okf.StatusOf(f.Status)
	rc.Status = status
	if !known {
		rc.note(fmt.Sprintf("status %s is not draft, stable or deprecated: treated as stable (D13)", escape.Quote(f.Status.Text())))
	}

	rc.Tier = okf.TierOf(f.Verified)
	if f.Verified.Shape == okf.VerifiedInvalid {
		rc.note(fmt.Sprintf("verified is %s, not a {by, at} mapping or a list of them: unverified (D12)", describe(f.Verified.Value)))
	}
	for _, e := range f.Verified.Entries {
		by := strings.TrimSpace(e.By.Text())
		if by == "" {
			rc.note("a verified entry without by does not count (D12)")
			continue
		}
		if !slices.Contains(rc.Verifiers, by) {
			rc.Verifiers = append(rc.Verifiers, by)
		}
		rc.timeNote("verified.at", e.At)
	}
	if last, ok := okf.LastVerified(f.Verified); ok {
		rc.Verified = &Stamp{By: strings.TrimSpace(last.By.Text()), At: last.At.Time, Approximate: last.At.Approximate()}
	}

	gen, legacy := okf.GeneratedAt(f)
	if f.Generated != nil || legacy {
		s := &Stamp{}
		if f.Generated != nil {
			s.By = strings.TrimSpace(f.Generated.By.Text())
		}
		if gen.Usable() {
			s.At, s.Approximate = gen.Time, gen.Approximate()
		}
		rc.Generated = s
		name := "generated.at"
		if legacy {
			name = "timestamp"
			rc.note("the v0.1 timestamp stands in for generated.at (§13.1, D10)")
		}
		rc.timeNote(name, gen)
	}
	rc.ChangedSinceVerified = okf.ChangedSinceVerified(f)

	fr := okf.FreshnessOf(f.StaleAfter(), opts.Now, opts.ExpiringWithin)
	rc.timeNote("stale_after", f.StaleAfter())
	switch {
	case !f.StaleAfter().Usable():
		rc.Freshness = FreshNone
	case fr.Stale:
		rc.Freshness = FreshStale
	case fr.Expiring:
		rc.Freshness = FreshExpiring
	default:
		rc.Freshness = FreshFresh
	}
	if f.StaleAfter().Usable() {
		rc.StaleAfter = &Stamp{At: fr.Since, Approximate: fr.Approximate}
	}

	rc.Sources = len(f.Sources.Items)
	seen := map[string]bool{} // a set, not slices.Contains: a file may list 100,000 sources
	for _, s := range f.Sources.Items {
		res := b.ResolvePath(c.Path, s.Resource.Text())
		if res.Kind != okf.RefLocal || !res.Exists || res.Escapes || seen[res.Target] {
			continue
		}
		seen[res.Target] = true
		rc.srcFiles = append(rc.srcFiles, res.Target)
	}
	linked := map[string]bool{}
	for _, l := range c.Body.Links {
		// Only a .md file can be a concept (ConceptAt): images and data files are not kept.
		if res := b.ResolveLink(c.Path, l.Target); res.Kind == okf.RefLocal && res.Exists && strings.HasSuffix(res.Target, ".md") && !linked[res.Target] {
			linked[res.Target] = true
			rc.linkFiles = append(rc.linkFiles, res.Target)
		}
	}

	if okf.IsAttestedComputation(f) {
		rc.computation = true
		rc.Runtime = strings.TrimSpace(f.Runtime().Text())
		if f.Attester() != nil {
			rc.Attester = strings.TrimSpace(f.Attester().Resource.Text())
		}
		rc.AttesterProblem = attesterProblem(b, c, rc.Attester, opts.Builtins)
	}
	return rc
}

// attesterProblem says why the attester of an Attested Computation is missing or cannot run, the
// way lint's OKF707 and okf attest read `attester.resource` (§10.2, D14, D17, D18), or "" when it
// can run. Only the bundle's file list is consulted (okf.ResolvePath): nothing is opened or run.
func attesterProblem(b *okf.Bundle, c *okf.Concept, res string, builtins []string) string {
	if res == "" {
		return "no attester.resource is declared"
	}
	if name, ok := strings.CutPrefix(res, "builtin:"); ok {
		if builtins != nil && !slices.Contains(builtins, "builtin:"+name) {
			return fmt.Sprintf("unknown built-in attester %q", res)
		}
		return ""
	}
	r := b.ResolvePath(c.Path, res)
	switch {
	case r.Kind == okf.RefExternal:
		return fmt.Sprintf("attester %q is a URL: only files inside the bundle and builtin:NAME run", res)
	case r.Escapes:
		return fmt.Sprintf("attester %q leaves the bundle (D14)", res)
	case !r.Exists:
		return fmt.Sprintf("attester %q does not exist in the bundle", res)
	case r.IsDir:
		return fmt.Sprintf("attester %q is a folder, not a file", res)
	}
	return ""
}

// bundleName is the report's title, the bundle's own name: the root index's `title` where the
// version it declares allows one (newer than 0.2: §12 lets a newer minor version add root keys, and
// okf reads such a bundle best-effort; in 0.2 the root index carries only okf_version, §8), else the
// root index's first heading unless it is a generic word ("Subdirectories", "Index") or names a
// section of the bundle (a folder or a concept type, as okf index writes them), else the name of
// the bundle's folder, else "bundle". rows are every concept's row, for the folders and types.
func bundleName(b *okf.Bundle, rows []*Concept) string {
	if x := b.RootIndex(); x != nil {
		if fm := x.Frontmatter; fm != nil && fm.Present && fm.OKFVersion().Kind == okf.Scalar && okf.NewerVersion(fm.OKFVersion().Raw) && fm.Title.IsString() {
			if t := oneLineTitle(fm.Title.Text()); t != "" {
				return t
			}
		}
		if x.Body != nil && len(x.Body.Headings) > 0 {
			if t := oneLineTitle(x.Body.Headings[0].Text); t != "" && !genericHeading(t, rows) {
				return t
			}
		}
	}
	if b.Root != "" {
		if abs, err := filepath.Abs(b.Root); err == nil {
			if n := filepath.Base(abs); n != "/" && n != "." && n != string(filepath.Separator) {
				return n
			}
		}
	}
	return "bundle"
}

// oneLineTitle is a title on one line, its runs of white space one space.
func oneLineTitle(s string) string { return strings.Join(strings.Fields(s), " ") }

// genericHeadings are the first headings of root indexes that name a part of the page rather than
// the bundle: lowercase, without punctuation at either end.
var genericHeadings = map[string]bool{
	"subdirectories": true, "subdirectory": true, "directories": true, "directory": true,
	"folders": true, "folder": true, "index": true, "contents": true, "content": true,
	"table of contents": true, "toc": true, "overview": true, "concepts": true, "sections": true,
	"categories": true, "topics": true, "files": true, "documents": true, "docs": true,
	"documentation": true, "pages": true, "entries": true, "home": true, "readme": true,
	"introduction": true, "intro": true, "about": true, "welcome": true, "summary": true,
	"start here": true, "getting started": true, "bundle": true, "knowledge": true,
	"knowledge base": true, "knowledge bundle": true, "root": true, "main": true, "catalog": true,
	"okf bundle": true, "index of concepts": true, "list of concepts": true, "all concepts": true,
}

// genericHeading reports whether a heading says nothing of which bundle this is: a generic word, a
// question, or the name of one of its folders or concept types (the sections okf index writes).
func genericHeading(h string, rows []*Concept) bool {
	if strings.HasSuffix(h, "?") {
		return true // a question opens a section ("What is this?"), it names nothing
	}
	k := strings.ToLower(strings.TrimFunc(h, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }))
	if k == "" || genericHeadings[k] {
		return true
	}
	for _, c := range rows {
		if dir, _, ok := strings.Cut(c.ID, "/"); ok && strings.ToLower(dir) == k {
			return true
		}
		if c.Type != "" && strings.ToLower(strings.TrimSpace(c.Type)) == k {
			return true
		}
	}
	return false
}

// trustKeys are the frontmatter keys about trust and lifecycle rather than content (§5.2–§5.5):
// editing them is not a change of what was verified.
var trustKeys = map[string]bool{"generated": true, "verified": true, "status": true, "stale_after": true}

// contentDigest hashes what a verification vouches for: the body and every frontmatter key except
// the trust and lifecycle ones, so --base can tell an edited concept from a re-stamped one.
func contentDigest(data []byte) [32]byte {
	h := sha256.New()
	sp := okf.SplitFrontmatter(data)
	h.Write(sp.Body)
	var doc yaml.Node
	if yaml.Unmarshal(sp.YAML, &doc) != nil || len(doc.Content) != 1 || doc.Content[0].Kind != yaml.MappingNode {
		h.Write(sp.YAML)
	} else {
		m := doc.Content[0]
		for i := 0; i+1 < len(m.Content); i += 2 {
			if trustKeys[m.Content[i].Value] {
				continue
			}
			v, _ := yaml.Marshal(m.Content[i+1])
			fmt.Fprintf(h, "%q:%s\n", m.Content[i].Value, v)
		}
	}
	var d [32]byte
	copy(d[:], h.Sum(nil))
	return d
}

// timeNote records how a timestamp that was not written as a full instant was read (D10).
func (rc *Concept) timeNote(name string, t okf.Timestamp) {
	switch t.Form {
	case okf.DateOnly:
		rc.Approximate = true
		rc.note(fmt.Sprintf("%s %s is date-only: read as %s (D10)", name, escape.Quote(t.Raw), t.Time.Format(time.RFC3339)))
	case okf.NoOffset:
		rc.Approximate = true
		rc.note(fmt.Sprintf("%s %s has no offset: read as UTC, %s (D10)", name, escape.Quote(t.Raw), t.Time.Format(time.RFC3339)))
	case okf.Empty:
		rc.note(fmt.Sprintf("%s is empty: counts as absent (D10)", name))
	case okf.Invalid:
		rc.note(fmt.Sprintf("%s %s is not a timestamp: ignored (D10)", name, escape.Quote(t.Raw)))
	}
}

func (rc *Concept) note(s string) {
	if !slices.Contains(rc.Notes, s) {
		rc.Notes = append(rc.Notes, s)
	}
}

// describe names a value for a note: the scalar quoted, or its shape.
func describe(v okf.Value) string {
	if v.Kind == okf.Scalar {
		return escape.Quote(v.Raw)
	}
	return v.Describe()
}

// topDir is the first segment of a concept's folder, "." at the root.
func topDir(dir string) string {
	if dir == "" || dir == "." {
		return "."
	}
	first, _, _ := strings.Cut(dir, "/")
	return first
}

// resolveSources turns the files the concept's sources name into the concepts it derives from
// (srcIDs): which files are concepts is known only once the whole bundle is loaded.
func (rc *Concept) resolveSources(b *okf.Bundle) {
	rc.srcIDs = nil
	for _, p := range rc.srcFiles {
		if up := b.ConceptAt(p); up != nil {
			rc.srcIDs = append(rc.srcIDs, up.ID) // distinct: srcFiles are, and a path is one ID
		}
	}
	slices.Sort(rc.srcIDs)
	rc.srcFiles = nil
}

// usedBy records, for each concept, the other concepts that cite it in sources or link to it
// (§6.1, D15), the "used" of the review queue.
func usedBy(b *okf.Bundle, rows []*Concept, all map[string]*Concept) {
	users := map[string]map[string]bool{}
	add := func(target, user string) {
		if target == user {
			return
		}
		if users[target] == nil {
			users[target] = map[string]bool{}
		}
		users[target][user] = true
	}
	for _, rc := range rows {
		for _, id := range rc.srcIDs {
			add(id, rc.ID)
		}
		for _, p := range rc.linkFiles {
			if t := b.ConceptAt(p); t != nil {
				add(t.ID, rc.ID)
			}
		}
		rc.linkFiles = nil
	}
	for id, us := range users {
		rc := all[id]
		for u := range us {
			rc.UsedBy = append(rc.UsedBy, u)
		}
		slices.Sort(rc.UsedBy)
	}
}

// flagReasons says why a concept taints what derives from it: unverified, stale or deprecated.
func flagReasons(c *Concept) []string {
	var rs []string
	if c.Tier == okf.Unverified {
		rs = append(rs, "unverified")
	}
	if c.Freshness == FreshStale {
		rs = append(rs, "stale")
	}
	if c.Status == okf.Deprecated {
		rs = append(rs, "deprecated")
	}
	return rs
}

// lineage follows each concept's sources through the bundle (§5.1) and records the flagged
// concepts (unverified, stale, deprecated) it derives from, each with its shortest chain. The walk
// stops at a flagged concept: what that one derives from is reported on its own row, and the
// chains stay short. Only concepts that lead to a flagged one at all are walked, so a large,
// healthy bundle costs one pass. It returns the source cycles.
func lineage(all []*Concept, byID map[string]*Concept) [][]string {
	users := map[string][]string{}
	for _, c := range all {
		for _, up := range c.srcIDs {
			users[up] = append(users[up], c.ID)
		}
	}
	flagged := map[string][]string{}
	live := map[string]bool{} // leads, through sources, to a flagged concept
	var queue []string
	for _, c := range all {
		if rs := flagReasons(c); len(rs) > 0 {
			flagged[c.ID] = rs
			queue = append(queue, c.ID)
		}
	}
	for len(queue) > 0 {
		cur := queue[0]
		queue = queue[1:]
		for _, u := range users[cur] {
			if !live[u] {
				live[u] = true
				queue = append(queue, u)
			}
		}
	}

	for _, c := range all {
		if !live[c.ID] {
			continue
		}
		prev := map[string]string{c.ID: ""}
		queue := []string{c.ID}
		for len(queue) > 0 {
			cur := queue[0]
			queue = queue[1:]
			for _, up := range byID[cur].srcIDs {
				if _, seen := prev[up]; seen {
					continue
				}
				prev[up] = cur
				if rs, ok := flagged[up]; ok {
					chain := []string{up}
					for p := cur; p != ""; p = prev[p] {
						chain = append(chain, p)
					}
					slices.Reverse(chain)
					elided := 0
					if len(chain) > MaxChain {
						elided = len(chain) - MaxChain
						chain = append(chain[:MaxChain/2:MaxChain/2], chain[len(chain)-MaxChain/2:]...)
					}
					c.Upstream = append(c.Upstream, Upstream{ID: up, Reasons: rs, Chain: chain, Elided: elided})
				} else if live[up] {
					queue = append(queue, up)
				}
			}
		}
		slices.SortFunc(c.Upstream, func(a, b Upstream) int {
			if d := a.hops() - b.hops(); d != 0 {
				return d
			}
			return strings.Compare(a.ID, b.ID)
		})
		if len(c.Upstream) > MaxUpstream {
			c.UpstreamMore = len(c.Upstream) - MaxUpstream
			c.Upstream = slices.Clip(c.Upstream[:MaxUpstream])
		}
	}
	return cycles(all, byID)
}

// cycles returns one shortest cycle per strongly connected group of concepts whose sources lead
// back to themselves (Tarjan's algorithm, linear in concepts and edges). all is sorted by ID, so the
// smallest ID of each group starts its cycle, closed by repeating it.
func cycles(all []*Concept, byID map[string]*Concept) [][]string {
	index := map[string]int{}
	low := map[string]int{}
	onStack := map[string]bool{}
	var stack []string
	group := map[string]int{} // concept -> group number, for groups that hold a cycle
	groups := 0
	var visit func(id string)
	visit = func(id string) {
		index[id] = len(index)
		low[id] = index[id]
		stack = append(stack, id)
		onStack[id] = true
		for _, up := range byID[id].srcIDs {
			if _, seen := index[up]; !seen {
				visit(up)
				low[id] = min(low[id], low[up])
			} else if onStack[up] {
				low[id] = min(low[id], index[up])
			}
		}
		if low[id] != index[id] {
			return
		}
		var members []string
		for {
			top := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			onStack[top] = false
			members = append(members, top)
			if top == id {
				break
			}
		}
		if len(members) > 1 || slices.Contains(byID[id].srcIDs, id) { // or a concept citing itself
			for _, m := range members {
				group[m] = groups
				byID[m].InCycle = true
			}
			groups++
		}
	}
	for _, c := range all {
		if _, seen := index[c.ID]; !seen {
			visit(c.ID)
		}
	}

	out := [][]string{}
	done := map[int]bool{}
	for _, c := range all {
		g, ok := group[c.ID]
		if !ok || done[g] {
			continue
		}
		done[g] = true
		// The shortest way from c back to c, breadth-first inside its group.
		prev := map[string]string{}
		queue := []string{c.ID}
	search:
		for len(queue) > 0 {
			cur := queue[0]
			queue = queue[1:]
			for _, up := range byID[cur].srcIDs {
				if up == c.ID {
					cycle := []string{c.ID}
					for p := cur; p != c.ID; p = prev[p] {
						cycle = append(cycle, p)
					}
					cycle = append(cycle, c.ID)
					slices.Reverse(cycle)
					out = append(out, cycle)
					break search
				}
				if gu, in := group[up]; in && gu == g {
					if _, seen := prev[up]; !seen {
						prev[up] = cur
						queue = append(queue, up)
					}
				}
			}
		}
	}
	return out
}

// count adds one concept to t.
func (t *Totals) count(c *Concept) {
	t.Concepts++
	switch c.Tier {
	case okf.HumanReviewed:
		t.HumanReviewed++
	case okf.MachineConfirmed:
		t.MachineConfirmed++
	default:
		t.Unverified++
	}
	switch c.Status {
	case okf.Draft:
		t.Draft++
	case okf.Deprecated:
		t.Deprecated++
	default:
		t.Stable++
	}
	switch c.Freshness {
	case FreshStale:
		t.Stale++
	case FreshExpiring:
		t.Expiring++
	case FreshFresh:
		t.Fresh++
	default:
		t.NoStaleAfter++
	}
	if c.ChangedSinceVerified {
		t.ChangedSinceVerified++
	}
	if len(c.Upstream) > 0 {
		t.FlaggedLineage++
	}
}

// totals counts the listed concepts overall and per top-level directory (sorted, "." first).
func totals(cs []*Concept) (Totals, []DirTotals) {
	var all Totals
	dirs := map[string]*DirTotals{}
	for _, c := range cs {
		all.count(c)
		d := dirs[c.Dir]
		if d == nil {
			d = &DirTotals{Dir: c.Dir}
			dirs[c.Dir] = d
		}
		d.count(c)
	}
	out := []DirTotals{}
	for _, d := range dirs {
		out = append(out, *d)
	}
	slices.SortFunc(out, func(a, b DirTotals) int { return strings.Compare(a.Dir, b.Dir) })
	return all, out
}

// queueReasons lists the review-queue rules c meets, as indexes into Ranks.
func queueReasons(c *Concept) []int {
	var rs []int
	if c.Freshness == FreshStale {
		if len(c.UsedBy) > 0 {
			rs = append(rs, 1)
		} else {
			rs = append(rs, 2)
		}
	}
	switch c.Tier {
	case okf.MachineConfirmed:
		rs = append(rs, 3)
	case okf.Unverified:
		rs = append(rs, 4)
	}
	if c.ChangedSinceVerified {
		rs = append(rs, 5)
	}
	if c.Freshness == FreshExpiring {
		rs = append(rs, 6)
	}
	if len(c.Upstream) > 0 {
		rs = append(rs, 7)
	}
	if c.AttesterProblem != "" {
		rs = append(rs, 8)
	}
	return rs
}

// queue orders the concepts that need a person, most urgent first (see Ranks): with --base, the
// concepts this change touched come first; then by rank; within a rank the most used, then the
// earliest stale_after, then by ID.
func queue(cs []*Concept) []QueueItem {
	items := []QueueItem{}
	for _, c := range cs {
		rs := queueReasons(c)
		if len(rs) == 0 || c.Status == okf.Deprecated {
			continue
		}
		it := QueueItem{ID: c.ID, Rank: rs[0], Touched: c.Touched, UsedBy: len(c.UsedBy), c: c, rules: rs}
		for _, r := range rs {
			it.Reasons = append(it.Reasons, Ranks[r])
			switch r {
			case 1, 2, 6:
				it.StaleAfter = c.StaleAfter
			case 3:
				it.Verified = c.Verified
			case 5:
				it.Verified, it.Generated, it.ContentEdited = c.Verified, c.Generated, c.contentEdited
			case 7:
				u := c.Upstream[0]
				it.Upstream, it.UpstreamMore = &u, len(c.Upstream)-1+c.UpstreamMore
			case 8:
				it.AttesterProblem = c.AttesterProblem
			}
		}
		items = append(items, it)
	}
	slices.SortFunc(items, func(a, b QueueItem) int {
		if a.Touched != b.Touched {
			if a.Touched {
				return -1
			}
			return 1
		}
		if a.Rank != b.Rank {
			return a.Rank - b.Rank
		}
		if d := b.UsedBy - a.UsedBy; d != 0 {
			return d
		}
		as, bs := a.c.StaleAfter, b.c.StaleAfter
		switch {
		case as != nil && bs != nil && !as.At.Equal(bs.At):
			return as.At.Compare(bs.At)
		case as != nil && bs == nil:
			return -1
		case as == nil && bs != nil:
			return 1
		}
		return strings.Compare(a.ID, b.ID)
	})
	return items
}

// selector applies Options' filters.
type selector struct {
	opts  Options
	paths *okf.Ignore
}

func newSelector(opts Options) selector {
	s := selector{opts: opts}
	if len(opts.Paths) > 0 {
		s.paths = okf.ParseIgnore(nil)
		for _, p := range opts.Paths {
			s.paths.Add(p)
		}
	}
	return s
}

func (s selector) match(c *Concept) bool {
	o := s.opts
	if len(o.Tiers) > 0 && !slices.Contains(o.Tiers, c.Tier) {
		return false
	}
	if len(o.Statuses) > 0 && !slices.Contains(o.Statuses, c.Status) {
		return false
	}
	if len(o.Types) > 0 && !slices.Contains(o.Types, c.Type) {
		return false
	}
	if o.StaleOnly && c.Freshness != FreshStale {
		return false
	}
	if s.paths != nil && !s.matchPath(c.Path) {
		return false
	}
	if sc := o.Scope; sc != "" && c.Path != sc && !(strings.HasSuffix(sc, "/") && strings.HasPrefix(c.Path, sc)) {
		return false
	}
	return true
}

// matchPath matches the concept's path, or one of its folders (so "metrics/" keeps everything
// under metrics, as it would leave it out of a .okfignore).
func (s selector) matchPath(p string) bool {
	segs := strings.Split(p, "/")
	for i := 1; i < len(segs); i++ {
		if s.paths.Match(strings.Join(segs[:i], "/"), true) {
			return true
		}
	}
	return s.paths.Match(p, false)
}

// FailOn lists the --fail-on conditions: the tier and staleness gates from the narrowest to the
// widest, then the other flags of the review queue.
var FailOn = []string{"stale", "expiring", "unverified", "machine-confirmed", "changed-since-verified", "lineage", "attester"}

// Failure is a listed concept that meets a --fail-on condition.
type Failure struct {
	ID, Condition, Detail string
}

// Failing returns the listed concepts that meet any of the conditions (see FailOn): "stale" is
// stale now; "expiring" is stale or expiring soon; "unverified" has no counted verification;
// "machine-confirmed" is anything below human-reviewed; "changed-since-verified" was edited after
// its last verification (with --base, also an edit since the base under the same verification);
// "lineage" derives from an unverified, stale or deprecated concept; "attester" is an Attested
// Computation whose attester is missing or cannot run. Conditions are checked by ParseFailOn.
func (r *Report) Failing(conds []string) []Failure {
	var out []Failure
	for _, c := range r.Concepts {
		for _, cond := range conds {
			var hit bool
			detail := c.Tier.String()
			switch cond {
			case "stale":
				hit = c.Freshness == FreshStale
			case "expiring":
				hit = c.Freshness == FreshStale || c.Freshness == FreshExpiring
			case "unverified":
				hit = c.Tier == okf.Unverified
			case "machine-confirmed":
				hit = c.Tier != okf.HumanReviewed
			case "changed-since-verified":
				hit = c.ChangedSinceVerified
				if c.Verified != nil {
					detail = "verified " + when(c.Verified.At, c.Verified.Approximate)
				}
				if c.contentEdited {
					detail += ", content edited since the base"
				} else if c.Generated != nil {
					detail += ", generated " + when(c.Generated.At, c.Generated.Approximate)
				}
			case "lineage":
				hit = len(c.Upstream) > 0
				if hit {
					u := c.Upstream[0]
					detail = u.ID + " is " + strings.Join(u.Reasons, ", ")
					if more := len(c.Upstream) - 1 + c.UpstreamMore; more > 0 {
						detail += fmt.Sprintf(", +%d more", more)
					}
				}
			case "attester":
				hit = c.AttesterProblem != ""
				detail = c.AttesterProblem
			}
			if cond == "stale" || cond == "expiring" {
				detail = c.Freshness
				if c.StaleAfter != nil {
					detail += ", stale_after " + when(c.StaleAfter.At, c.StaleAfter.Approximate)
				}
			}
			if hit {
				out = append(out, Failure{ID: c.ID, Condition: cond, Detail: detail})
			}
		}
	}
	return out
}

// ParseFailOn checks --fail-on values.
func ParseFailOn(vals []string) ([]string, error) {
	var out []string
	for _, v := range vals {
		v = strings.TrimSpace(v)
		if !slices.Contains(FailOn, v) {
			return nil, suggest.UnknownValue("condition", v, FailOn)
		}
		if !slices.Contains(out, v) {
			out = append(out, v)
		}
	}
	return out, nil
}
