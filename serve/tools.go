package serve

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"path"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/okf-tools/okf/okf"
	"github.com/okf-tools/okf/trust"
)

// The tools' names and descriptions are short on purpose: every host puts them in the model's
// context on every call (TestToolsListBudget keeps the whole tools/list under 600 o200k tokens).

// SearchIn is the search tool's input. The schema's descriptions and limits are set in addTools.
type SearchIn struct {
	Query             string `json:"query"`
	K                 int    `json:"k,omitempty"`
	Type              string `json:"type,omitempty"`
	Tag               string `json:"tag,omitempty"`
	MinTier           string `json:"min_tier,omitempty"`
	IncludeDeprecated bool   `json:"include_deprecated,omitempty"`
}

// Hit is one search result.
type Hit struct {
	ID          string  `json:"id"`
	URI         string  `json:"uri"`
	Title       string  `json:"title,omitempty"`
	Description string  `json:"description,omitempty"`
	Type        string  `json:"type,omitempty"`
	Status      string  `json:"status"`
	Tier        string  `json:"tier"`
	Freshness   string  `json:"freshness"`
	Score       float64 `json:"score"`
}

// SearchOut is the search tool's output.
type SearchOut struct {
	Hits []Hit `json:"hits"`
	// Omitted counts the hits left out to keep the answer within maxAnswerBytes.
	Omitted int `json:"omitted,omitempty"`
}

// ReadIn is the read tool's input.
type ReadIn struct {
	ID       string `json:"id"`
	MaxWords int    `json:"max_words,omitempty"`
	Offset   int    `json:"offset,omitempty"`
}

// ReadOut is the read tool's output.
type ReadOut struct {
	ID    string `json:"id"`
	Trust string `json:"trust"`
	Text  string `json:"text"`
	Words int    `json:"words"`
	Next  int    `json:"next_offset,omitempty"`
}

// BrowseIn is the browse tool's input.
type BrowseIn struct {
	Dir    string `json:"dir,omitempty"`
	Cursor string `json:"cursor,omitempty"`
	Limit  int    `json:"limit,omitempty"`
}

// Entry is one child of a folder: a concept (ID) or a subfolder (Dir). It is compact on purpose
// (a root index may list thousands): the description is left to search and read.
type Entry struct {
	ID    string `json:"id,omitempty"`
	Dir   string `json:"dir,omitempty"`
	Title string `json:"title,omitempty"`
	Type  string `json:"type,omitempty"`
	Tier  string `json:"tier,omitempty"`
	// Status is given only when it is not stable (draft, deprecated).
	Status string `json:"status,omitempty"`
}

// BrowseOut is the browse tool's output: one page of a folder's entries.
type BrowseOut struct {
	Dir string `json:"dir"`
	// Index is the folder's index.md as a resource URI ("" when the folder has none).
	Index   string  `json:"index,omitempty"`
	Entries []Entry `json:"entries"`
	// Total is how many entries the folder has in all.
	Total int `json:"total"`
	// Truncated is true when entries past this page remain; NextCursor continues from them.
	Truncated  bool   `json:"truncated"`
	NextCursor string `json:"next_cursor,omitempty"`
}

// TrustIn is the trust tool's input.
type TrustIn struct {
	ID string `json:"id"`
}

// Stamp is an actor and an instant.
type Stamp struct {
	// By is the actor, when it is of the §7 forms (actorKind).
	By string `json:"by,omitempty"`
	// Kind is okf's reading of the actor: human, process, agent, team, or invalid.
	Kind string `json:"kind,omitempty"`
	// AsWritten is an invalid actor's text, escaped and clipped: the bundle's words, kept apart
	// from By so that no reader takes them for an actor okf accepted.
	AsWritten string `json:"as_written,omitempty"`
	At        string `json:"at,omitempty"`
}

// Source is one `sources` entry.
type Source struct {
	ID       string `json:"id,omitempty"`
	Resource string `json:"resource,omitempty"`
	Title    string `json:"title,omitempty"`
}

// TrustOut is the trust tool's output: what `okf trust` knows about one concept.
type TrustOut struct {
	ID                   string           `json:"id"`
	Tier                 string           `json:"tier"`
	Status               string           `json:"status"`
	Freshness            string           `json:"freshness"`
	StaleAfter           string           `json:"stale_after,omitempty"`
	Generated            *Stamp           `json:"generated,omitempty"`
	Verified             []Stamp          `json:"verified"`
	ChangedSinceVerified bool             `json:"changed_since_verified"`
	Sources              []Source         `json:"sources"`
	DerivesFrom          []string         `json:"derives_from"`
	FlaggedUpstream      []trust.Upstream `json:"flagged_upstream"`
	UsedBy               []string         `json:"used_by"`
	Notes                []string         `json:"notes,omitempty"`
}

var (
	no       = false
	readOnly = &mcp.ToolAnnotations{ReadOnlyHint: true, IdempotentHint: true, DestructiveHint: &no, OpenWorldHint: &no}
)

// The limits of the tools' inputs, stated in their schemas and refused past (gate, checkArgs).
const (
	defaultK        = 5
	defaultWords    = 400
	defaultBrowse   = 100
	maxBrowse       = 500
	browseByteLimit = 32 << 10 // a browse page as JSON, about 8k tokens
)

// prop is one input property: its JSON type, description, and integer limits and default.
type prop struct {
	typ, desc string
	min, max  *float64
	def       any
	enum      []any
	required  bool
}

func num(f float64) *float64 { return &f }

// inputSchema is a tool's input schema: an object of the given properties, nothing else.
func inputSchema(order []string, props map[string]prop) *jsonschema.Schema {
	sch := &jsonschema.Schema{Type: "object", Properties: map[string]*jsonschema.Schema{}, AdditionalProperties: &jsonschema.Schema{Not: &jsonschema.Schema{}}, PropertyOrder: order}
	for _, name := range order {
		p := props[name]
		ps := &jsonschema.Schema{Type: p.typ, Description: p.desc, Minimum: p.min, Maximum: p.max, Enum: p.enum}
		if p.def != nil {
			b, _ := json.Marshal(p.def)
			ps.Default = b
		}
		sch.Properties[name] = ps
		if p.required {
			sch.Required = append(sch.Required, name)
		}
	}
	return sch
}

func (s *Server) addTools() {
	tiers := []any{"unverified", "machine-confirmed", "human-reviewed"}
	s.inputs = map[string]*jsonschema.Schema{
		"search": inputSchema([]string{"query", "k", "type", "tag", "min_tier", "include_deprecated"}, map[string]prop{
			"query":              {typ: "string", desc: "words to find", required: true},
			"k":                  {typ: "integer", desc: "hits", min: num(1), max: num(maxK), def: defaultK},
			"type":               {typ: "string", desc: "only this type"},
			"tag":                {typ: "string", desc: "only this tag"},
			"min_tier":           {typ: "string", desc: "lowest trust tier", enum: tiers, def: "unverified"},
			"include_deprecated": {typ: "boolean", def: false, desc: "keep deprecated"},
		}),
		"read": inputSchema([]string{"id", "max_words", "offset"}, map[string]prop{
			"id":        {typ: "string", desc: "concept ID or okf:// URI", required: true},
			"max_words": {typ: "integer", desc: "words to return", min: num(1), max: num(maxWords), def: defaultWords},
			"offset":    {typ: "integer", desc: "first word (next_offset)", min: num(0), def: 0},
		}),
		"browse": inputSchema([]string{"dir", "cursor", "limit"}, map[string]prop{
			"dir":    {typ: "string", desc: "folder, default the root"},
			"cursor": {typ: "string", desc: "next_cursor of the last page"},
			"limit":  {typ: "integer", desc: "entries", min: num(1), max: num(maxBrowse), def: defaultBrowse},
		}),
		"trust": inputSchema([]string{"id"}, map[string]prop{
			"id": {typ: "string", desc: "concept ID", required: true},
		}),
	}
	mcp.AddTool(s.mcp, &mcp.Tool{
		Name:        "search",
		Description: "Ranked search of title, headings, description, link text, path, other frontmatter values, body. Hits give id, title, type, status, trust tier, freshness; deprecated only if asked.",
		InputSchema: s.inputs["search"],
		Annotations: readOnly,
	}, untyped(s.search))
	mcp.AddTool(s.mcp, &mcp.Tool{
		Name:        "read",
		Description: "A concept's text; the first line states its trust. Continue with next_offset.",
		InputSchema: s.inputs["read"],
		Annotations: readOnly,
	}, untyped(s.read))
	mcp.AddTool(s.mcp, &mcp.Tool{
		Name:        "browse",
		Description: "A folder's entries with type and tier, paged: index order, then the rest.",
		InputSchema: s.inputs["browse"],
		Annotations: readOnly,
	}, untyped(s.browse))
	mcp.AddTool(s.mcp, &mcp.Tool{
		Name:        "trust",
		Description: "A concept's provenance: sources, generated, verified, staleness, lineage.",
		InputSchema: s.inputs["trust"],
		Annotations: readOnly,
	}, untyped(s.trust))
}

// untyped hides a handler's output type from the SDK, so that tools/list carries no output schema:
// the schemas would double what every host puts in the model's context (about 1,100 o200k tokens
// instead of 500). The output is still sent as structuredContent (and as JSON text), and the README
// documents it.
func untyped[In, Out any](h mcp.ToolHandlerFor[In, Out]) mcp.ToolHandlerFor[In, any] {
	return func(ctx context.Context, req *mcp.CallToolRequest, in In) (*mcp.CallToolResult, any, error) {
		res, out, err := h(ctx, req, in)
		if err != nil {
			return nil, nil, err
		}
		return res, out, nil
	}
}

func (s *Server) freshness(d *doc) string {
	if d.concept == nil {
		return trust.FreshNone
	}
	sa := d.concept.Frontmatter.StaleAfter()
	if !sa.Usable() {
		return trust.FreshNone
	}
	f := okf.FreshnessOf(sa, s.opts.now(), s.opts.ExpiringWithin)
	switch {
	case f.Stale:
		return trust.FreshStale
	case f.Expiring:
		return trust.FreshExpiring
	}
	return trust.FreshFresh
}

func (s *Server) search(_ context.Context, _ *mcp.CallToolRequest, in SearchIn) (*mcp.CallToolResult, SearchOut, error) {
	out := SearchOut{Hits: []Hit{}}
	q := tokens(in.Query, nil)
	if len(q) == 0 {
		return nil, out, errors.New("query has no words to search for")
	}
	if len(q) > 64 {
		q = q[:64]
	}
	k := in.K
	switch {
	case k == 0:
		k = defaultK
	case k < 1 || k > maxK:
		return nil, out, fmt.Errorf("k must be from 1 to %d, got %d", maxK, k)
	}
	minTier := okf.Unverified
	if in.MinTier != "" {
		t, ok := okf.ParseTier(in.MinTier)
		if !ok {
			return nil, out, fmt.Errorf("min_tier %s: want unverified, machine-confirmed or human-reviewed", quote(in.MinTier, maxEcho))
		}
		minTier = t
	}
	typ := strings.TrimSpace(in.Type)
	tag := strings.ToLower(strings.TrimSpace(in.Tag))
	snap := s.snap.Load()
	keep := func(i int) bool {
		d := snap.docs[i]
		switch {
		case d.tier < minTier:
			return false
		case d.status == okf.Deprecated && !in.IncludeDeprecated:
			return false
		case typ != "" && !strings.EqualFold(d.typ, typ):
			return false
		case tag != "" && !contains(d.tags, tag):
			return false
		}
		return true
	}
	for _, h := range snap.idx.search(q, k, keep) {
		d := snap.docs[h.doc]
		out.Hits = append(out.Hits, Hit{
			ID: d.id, URI: d.uri, Title: oneLine(d.title, 300), Description: oneLine(d.description, 500), Type: oneLine(d.typ, 100),
			Status: d.status.String(), Tier: d.tier.String(), Freshness: s.freshness(d),
			Score: float64(int64(h.score*1000+0.5)) / 1000,
		})
	}
	// Within answerBudget as a whole: the best hits that fit.
	all := out.Hits
	k = fitCount(len(all), func(k int) bool {
		return toolSize(SearchOut{Hits: all[:k], Omitted: len(all) - k}) <= answerBudget
	})
	out.Hits, out.Omitted = all[:k], len(all)-k
	return nil, out, nil
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// clip shortens s to at most n bytes at a rune boundary, marking the cut.
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return strings.ToValidUTF8(s[:n], "") + "…"
}

func (s *Server) lookup(id string) (*snapshot, *doc, error) {
	snap := s.snap.Load()
	id = strings.TrimSuffix(strings.TrimPrefix(strings.TrimSpace(id), "/"), ".md")
	if u, ok := idOf(id); ok {
		id = u
	}
	if id == "" {
		return nil, nil, errors.New("id is empty: give a concept ID from search or browse")
	}
	d := snap.byID[id]
	if d == nil {
		return nil, nil, fmt.Errorf("no concept %s in this bundle; find IDs with search or browse", quote(id, maxEcho))
	}
	return snap, d, nil
}

func (s *Server) read(_ context.Context, _ *mcp.CallToolRequest, in ReadIn) (*mcp.CallToolResult, ReadOut, error) {
	var out ReadOut
	if in.Offset < 0 {
		return nil, out, fmt.Errorf("offset must be 0 or more, got %d", in.Offset)
	}
	n := in.MaxWords
	switch {
	case n == 0:
		n = defaultWords
	case n < 1 || n > maxWords:
		return nil, out, fmt.Errorf("max_words must be from 1 to %d, got %d", maxWords, n)
	}
	snap, d, err := s.lookup(in.ID)
	if err != nil {
		return nil, out, err
	}
	// The whole answer (trust line and text, then both again as structuredContent, as JSON writes
	// them) within answerBudget: cut the text, measure, and cut shorter until it fits. Each try
	// cuts the text in proportion to the excess, so few are needed; a text of minCut bytes always
	// fits (the trust line is at most maxTrustLine).
	const minCut = 1 << 10
	words := d.words.words(d.body)
	line := s.trustLine(snap, d)
	limit := maxAnswerBytes
	var res *mcp.CallToolResult
	for {
		text, total, next := cutWords(d.body, words, in.Offset, n, limit)
		out = ReadOut{ID: d.id, Trust: line, Text: text, Words: total, Next: next}
		var b strings.Builder
		b.WriteString(out.Trust)
		b.WriteString("\n\n")
		b.WriteString(text)
		if next > 0 {
			fmt.Fprintf(&b, "\n\n[words %d-%d of %d; continue with offset=%d]", in.Offset+1, next, total, next)
		} else if in.Offset >= total && total > 0 {
			fmt.Fprintf(&b, "[offset %d is past the end: the text has %d words]", in.Offset, total)
		}
		res = &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: b.String()}}}
		size := readSize(res.Content, out)
		if size <= answerBudget || limit <= minCut {
			break
		}
		limit = max(minCut, int(int64(len(text))*int64(answerBudget)/int64(size)*9/10))
	}
	return res, out, nil
}

// when prints an instant as written: a date when it was date-only or had no offset (D10).
func when(t time.Time, approx bool) string {
	if t.IsZero() {
		return "an unreadable time"
	}
	if approx {
		return t.UTC().Format("2006-01-02")
	}
	return t.UTC().Format(time.RFC3339)
}

// trustLine states a concept's trust in one line: tier, status, who verified it and when, who
// generated it, staleness, sources and flagged lineage. It is the server's voice, so no bundle text
// goes into it unchecked: tier, status and freshness are okf's readings, times are re-rendered from
// parsed values, actors are shown only when valid (showActor) and IDs plain or quoted (showID). It
// is at most maxTrustLine bytes whatever the bundle.
func (s *Server) trustLine(snap *snapshot, d *doc) string {
	if d.isIndex() {
		return "Trust: this is a folder index (a list of links), not a concept."
	}
	parts := []string{fmt.Sprintf("Trust: %s %s", d.tier, d.status)}
	r := snap.rowOf(d)
	switch {
	case r != nil && r.Verified != nil:
		parts = append(parts, fmt.Sprintf("verified by %s at %s", showActor(r.Verified.By), when(r.Verified.At, r.Verified.Approximate)))
	case r != nil && len(r.Verifiers) > 0:
		// Counted entries (they make the tier, D12), none with a readable time: the one that made
		// the tier, not "never verified" beside a tier that says otherwise.
		by := r.Verifiers[0]
		for _, v := range r.Verifiers {
			if d.tier == okf.HumanReviewed && okf.ClassifyActor(v) == okf.ActorHuman {
				by = v
				break
			}
		}
		parts = append(parts, fmt.Sprintf("verified by %s at %s", showActor(by), when(time.Time{}, false)))
	default:
		parts = append(parts, "never verified")
	}
	if r != nil && r.Generated != nil {
		g := "generated"
		if strings.TrimSpace(r.Generated.By) != "" {
			g += " by " + showActor(r.Generated.By)
		}
		if !r.Generated.At.IsZero() {
			g += " at " + when(r.Generated.At, r.Generated.Approximate)
		}
		parts = append(parts, g)
	}
	if r != nil && r.ChangedSinceVerified {
		parts = append(parts, "changed since verified")
	}
	sa := d.concept.Frontmatter.StaleAfter()
	switch f := s.freshness(d); f {
	case trust.FreshNone:
		parts = append(parts, "no stale_after")
	case trust.FreshStale:
		parts = append(parts, "STALE since "+when(sa.Time, sa.Approximate()))
	case trust.FreshExpiring:
		parts = append(parts, "expiring at "+when(sa.Time, sa.Approximate()))
	default:
		parts = append(parts, "fresh until "+when(sa.Time, sa.Approximate()))
	}
	n := len(d.concept.Frontmatter.Sources.Items)
	switch n {
	case 1:
		parts = append(parts, "1 source")
	default:
		parts = append(parts, fmt.Sprintf("%d sources", n))
	}
	if r != nil && len(r.Upstream) > 0 {
		// As many flagged upstreams as fit the line; the trust tool lists them all.
		room := maxTrustLine - 400
		for _, p := range parts {
			room -= len(p) + 2
		}
		var ups []string
		for i, u := range r.Upstream {
			up := fmt.Sprintf("%s (%s)", showID(u.ID), strings.Join(u.Reasons, ", "))
			if room -= len(up) + 2; room < 0 {
				ups = append(ups, fmt.Sprintf("%d more (the trust tool lists them)", len(r.Upstream)-i+r.UpstreamMore))
				break
			}
			ups = append(ups, up)
			if i == len(r.Upstream)-1 && r.UpstreamMore > 0 {
				ups = append(ups, fmt.Sprintf("%d more (the trust tool lists them)", r.UpstreamMore))
			}
		}
		parts = append(parts, "derives from flagged "+strings.Join(ups, ", "))
	}
	line := strings.Join(parts, "; ") + "."
	if d.stale != nil {
		line += " Note: " + staleNote(d.stale) + "."
	}
	return line
}

func (s *Server) browse(_ context.Context, _ *mcp.CallToolRequest, in BrowseIn) (*mcp.CallToolResult, BrowseOut, error) {
	snap := s.snap.Load()
	dir := strings.Trim(strings.TrimSpace(in.Dir), "/")
	if dir == "." {
		dir = ""
	}
	out := BrowseOut{Dir: dir, Entries: []Entry{}}
	limit := in.Limit
	switch {
	case limit == 0:
		limit = defaultBrowse
	case limit < 1 || limit > maxBrowse:
		return nil, out, fmt.Errorf("limit must be from 1 to %d, got %d", maxBrowse, limit)
	}
	start := 0
	if in.Cursor != "" {
		n, ok := browseOffset(in.Cursor)
		if !ok {
			return nil, out, fmt.Errorf("cursor %s is not one browse gave: pass next_cursor as it came, or leave it out for the first page", quote(in.Cursor, maxEcho))
		}
		start = n
	}
	if exists, isDir := snap.bundle.Stat(dir); dir != "" && (!exists || !isDir || !plainID(dir)) {
		return nil, out, fmt.Errorf("no folder %s in this bundle; browse the root (dir \"\") to see its folders", quote(dir, maxEcho))
	}
	all := snap.entries(dir)
	if x := snap.byID[indexID(dir)]; x != nil {
		out.Index = x.uri
	}
	out.Total = len(all)
	end := min(len(all), start+limit)
	if start < end {
		out.Entries = all[start:end]
	}
	// Within browseAnswer as a whole: the first entries of the page that fit, the cursor going on
	// from the first left out.
	page := out.Entries
	k := fitCount(len(page), func(k int) bool {
		o := out
		o.Entries = page[:k]
		if start+k < len(all) {
			o.Truncated, o.NextCursor = true, browseCursor(start+k)
		}
		return toolSize(o) <= browseAnswer
	})
	out.Entries = page[:k]
	if start+k < len(all) {
		out.Truncated, out.NextCursor = true, browseCursor(start+k)
	}
	return nil, out, nil
}

// browseAnswer caps a browse answer as sent (the output twice, structured and as text): about
// 16k o200k tokens at most; a default page of 100 entries is a few thousand.
const browseAnswer = 2 * browseByteLimit

// browseCursor and browseOffset write and read a browse cursor: the offset of the page's first
// entry. A reload between pages may shift entries by the ones added or removed before it.
func browseCursor(n int) string {
	return base64.RawURLEncoding.EncodeToString([]byte("b" + strconv.Itoa(n)))
}

func browseOffset(c string) (int, bool) {
	b, err := base64.RawURLEncoding.DecodeString(c)
	if err != nil || len(b) < 2 || b[0] != 'b' {
		return 0, false
	}
	n, err := strconv.Atoi(string(b[1:]))
	return n, err == nil && n >= 0
}

// entries lists a folder's children: its index.md's entries in order, then the subfolders and
// concepts it does not list. Made once per folder and snapshot.
func (snap *snapshot) entries(dir string) []Entry {
	snap.entriesMu.Lock()
	defer snap.entriesMu.Unlock()
	if e, ok := snap.browsed[dir]; ok {
		return e
	}
	all := []Entry{}
	listed := map[string]bool{}
	concept := func(d *doc, title string) Entry {
		if title == "" {
			title = d.title
		}
		e := Entry{ID: d.id, Title: oneLine(title, 300), Type: oneLine(d.typ, 100), Tier: d.tier.String()}
		if d.status != okf.Stable {
			e.Status = d.status.String()
		}
		return e
	}
	if x := snap.byID[indexID(dir)]; x != nil {
		for _, sec := range x.index.Sections {
			for _, ie := range sec.Entries {
				res := snap.bundle.ResolveLink(x.path, ie.Target)
				if res.Kind != okf.RefLocal || !res.Exists || res.Escapes {
					continue
				}
				target := strings.TrimSuffix(res.Target, "/")
				if c := snap.bundle.ConceptAt(target); c != nil && snap.byID[c.ID] != nil {
					if !listed[c.ID] {
						listed[c.ID] = true
						all = append(all, concept(snap.byID[c.ID], ie.Title))
					}
					continue
				}
				if path.Base(target) == "index.md" {
					target = path.Dir(target)
				}
				if _, isDir := snap.bundle.Stat(target); isDir && plainID(target) && !listed[target+"/"] {
					listed[target+"/"] = true
					all = append(all, Entry{Title: oneLine(ie.Title, 300), Dir: target})
				}
			}
		}
	}
	for _, sub := range snap.dirs[dir] {
		if !listed[sub+"/"] {
			all = append(all, Entry{Title: oneLine(path.Base(sub), 300), Dir: sub})
		}
	}
	for _, d := range snap.docs[:snap.concepts] {
		if d.concept.Dir() == dir && !listed[d.id] {
			all = append(all, concept(d, ""))
		}
	}
	if snap.browsed == nil {
		snap.browsed = map[string][]Entry{}
	}
	snap.browsed[dir] = all
	return all
}

func (s *Server) trust(_ context.Context, _ *mcp.CallToolRequest, in TrustIn) (*mcp.CallToolResult, TrustOut, error) {
	var out TrustOut
	snap, d, err := s.lookup(in.ID)
	if err != nil {
		return nil, out, err
	}
	if d.isIndex() {
		return nil, out, fmt.Errorf("%s is a folder index, not a concept: it has no provenance", showID(d.id))
	}
	f := d.concept.Frontmatter
	out = TrustOut{
		ID: d.id, Tier: d.tier.String(), Status: d.status.String(), Freshness: s.freshness(d),
		Verified: []Stamp{}, Sources: []Source{}, DerivesFrom: []string{}, FlaggedUpstream: []trust.Upstream{}, UsedBy: []string{},
	}
	if f.StaleAfter().Usable() {
		out.StaleAfter = when(f.StaleAfter().Time, f.StaleAfter().Approximate())
	}
	for _, v := range f.Verified.Entries {
		if len(out.Verified) == maxList {
			break
		}
		st := stamp(v.By.Text())
		if v.At.Usable() {
			st.At = when(v.At.Time, v.At.Approximate())
		}
		out.Verified = append(out.Verified, st)
	}
	if r := snap.rowOf(d); r != nil {
		if r.Generated != nil {
			st := stamp(r.Generated.By)
			out.Generated = &st
			if !r.Generated.At.IsZero() {
				out.Generated.At = when(r.Generated.At, r.Generated.Approximate)
			}
		}
		out.ChangedSinceVerified = r.ChangedSinceVerified
		// Only IDs that are served (plainID): one that is not would reach the host with its line
		// break or bidi control, and could not be read anyway.
		var unplain int
		plain := func(ids []string) []string {
			var keep []string
			for _, id := range ids {
				if plainID(id) {
					keep = append(keep, id)
				} else {
					unplain++
				}
			}
			return keep
		}
		out.DerivesFrom = append(out.DerivesFrom, capList(plain(r.DerivesFrom()))...)
		for _, u := range r.Upstream {
			if len(out.FlaggedUpstream) == maxList {
				break
			}
			if plainID(u.ID) && !slices.ContainsFunc(u.Chain, func(id string) bool { return !plainID(id) }) {
				out.FlaggedUpstream = append(out.FlaggedUpstream, u)
			} else {
				unplain++
			}
		}
		out.UsedBy = append(out.UsedBy, capList(plain(r.UsedBy))...)
		if unplain > 0 {
			out.Notes = append(out.Notes, fmt.Sprintf("%d lineage entries left out: they name concepts not served (control, line-break, bidi or invisible characters or ##[ in their names)", unplain))
		}
		for _, n := range r.Notes[:min(len(r.Notes), maxList)] {
			out.Notes = append(out.Notes, clipNote(escapeShown(n), maxNote))
		}
	}
	for _, src := range f.Sources.Items {
		if len(out.Sources) == maxList {
			break
		}
		out.Sources = append(out.Sources, Source{
			ID: oneLine(strings.TrimSpace(src.ID.Text()), 200), Resource: oneLine(strings.TrimSpace(src.Resource.Text()), 1000), Title: oneLine(strings.TrimSpace(src.Title.Text()), 300),
		})
	}
	if d.stale != nil {
		out.Notes = append(out.Notes, staleNote(d.stale))
	}
	fitTrust(&out)
	return nil, out, nil
}

// fitTrust keeps a trust answer within answerBudget as a whole: while it is over, the list that
// weighs most loses its second half, and a note says how many of its items were left out.
func fitTrust(out *TrustOut) {
	// Room for the notes of what was left out.
	budget := answerBudget - 1<<10
	var cut [6]int
	names := [6]string{"sources", "derives_from", "flagged_upstream", "used_by", "verified", "notes"}
	for toolSize(out) > budget {
		lists := [6]int{jsonSize(out.Sources), jsonSize(out.DerivesFrom), jsonSize(out.FlaggedUpstream), jsonSize(out.UsedBy), jsonSize(out.Verified), jsonSize(out.Notes)}
		lens := [6]int{len(out.Sources), len(out.DerivesFrom), len(out.FlaggedUpstream), len(out.UsedBy), len(out.Verified), len(out.Notes)}
		big := -1
		for i := range lists {
			if lens[i] > 0 && (big < 0 || lists[i] > lists[big]) {
				big = i
			}
		}
		if big < 0 {
			break
		}
		keep := lens[big] / 2
		cut[big] += lens[big] - keep
		switch big {
		case 0:
			out.Sources = out.Sources[:keep]
		case 1:
			out.DerivesFrom = out.DerivesFrom[:keep]
		case 2:
			out.FlaggedUpstream = out.FlaggedUpstream[:keep]
		case 3:
			out.UsedBy = out.UsedBy[:keep]
		case 4:
			out.Verified = out.Verified[:keep]
		case 5:
			out.Notes = out.Notes[:keep]
		}
	}
	for i, n := range cut {
		if n > 0 {
			out.Notes = append(out.Notes, leftOut(n, names[i]))
		}
	}
}

func capList(l []string) []string { return l[:min(len(l), maxList)] }
