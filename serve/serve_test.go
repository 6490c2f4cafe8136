package serve

import (
	"context"
	"encoding/json"
	"errors"
	"net/http/httptest"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// testNow is the clock of every test: kv-cache's stale_after (2026-12-10) is 10 days ahead, within
// the 30-day window (expiring); old-cache's (2026-01-01) is behind (stale).
var testNow = time.Date(2026, 11, 30, 0, 0, 0, 0, time.UTC)

// copyBundle copies testdata/bundle to a temporary folder, so a test may edit it.
func copyBundle(t *testing.T) string {
	t.Helper()
	dst := t.TempDir()
	err := filepath.WalkDir("testdata/bundle", func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel("testdata/bundle", p)
		if d.IsDir() {
			return os.MkdirAll(filepath.Join(dst, rel), 0o755)
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dst, rel), data, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	return dst
}

type reports struct {
	mu    sync.Mutex
	lines []string
}

func (r *reports) add(l string) { r.mu.Lock(); r.lines = append(r.lines, l); r.mu.Unlock() }
func (r *reports) all() string  { r.mu.Lock(); defer r.mu.Unlock(); return strings.Join(r.lines, "\n") }

func newServer(t testing.TB, dir string, pageSize int) (*Server, *reports) {
	t.Helper()
	rep := &reports{}
	s, err := New(Options{Dir: dir, Now: func() time.Time { return testNow }, ExpiringWithin: 30 * 24 * time.Hour, PageSize: pageSize, Report: rep.add})
	if err != nil {
		t.Fatal(err)
	}
	return s, rep
}

// The two protocol eras: the 2026-07-28 revision (server/discover, per-request _meta, no
// handshake) and the initialize handshake of 2025-11-25 that most deployed hosts speak.
var eras = []string{"2026-07-28", "2025-11-25"}

type client struct {
	*mcp.ClientSession
	listChanged chan struct{}
}

// connect opens a client session of the given era over transport t.
func connect(t *testing.T, tr mcp.Transport, era string) *client {
	t.Helper()
	c := &client{listChanged: make(chan struct{}, 16)}
	cl := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, &mcp.ClientOptions{
		ResourceListChangedHandler: func(context.Context, *mcp.ResourceListChangedRequest) {
			c.listChanged <- struct{}{}
		},
	})
	cs, err := cl.Connect(context.Background(), tr, &mcp.ClientSessionOptions{ProtocolVersion: era})
	if err != nil {
		t.Fatalf("connect (%s): %v", era, err)
	}
	if got := cs.InitializeResult().ProtocolVersion; got != era {
		t.Fatalf("negotiated %s, want %s", got, era)
	}
	t.Cleanup(func() { cs.Close() })
	c.ClientSession = cs
	return c
}

func inMemory(t *testing.T, s *Server, era string) *client {
	t.Helper()
	st, ct := mcp.NewInMemoryTransports()
	ss, err := s.MCP().Connect(context.Background(), st, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ss.Close() })
	return connect(t, ct, era)
}

func overHTTP(t *testing.T, s *Server, era string) *client {
	t.Helper()
	hs := httptest.NewServer(s.Handler(HTTPOptions{}))
	t.Cleanup(hs.Close)
	return connect(t, &mcp.StreamableClientTransport{Endpoint: hs.URL + Path, DisableStandaloneSSE: true}, era)
}

// call runs a tool and decodes its structured output into out; it fails the test on a protocol
// error and returns the result for IsError checks.
func call(t *testing.T, c *client, name string, args any, out any) *mcp.CallToolResult {
	t.Helper()
	res, err := c.CallTool(context.Background(), &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatalf("%s(%v): %v", name, args, err)
	}
	if out != nil && !res.IsError {
		// Decode into a zero value: omitted fields must not keep an earlier call's values.
		reflect.ValueOf(out).Elem().SetZero()
		raw, _ := json.Marshal(res.StructuredContent)
		if err := json.Unmarshal(raw, out); err != nil {
			t.Fatalf("%s: structured content %s: %v", name, raw, err)
		}
	}
	return res
}

func text(res *mcp.CallToolResult) string {
	var b strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			b.WriteString(tc.Text)
		}
	}
	return b.String()
}

func hitIDs(out SearchOut) []string {
	var ids []string
	for _, h := range out.Hits {
		ids = append(ids, h.ID)
	}
	return ids
}

// transports runs f over each transport the SDK's client can reach in-process, in both eras.
func forEach(t *testing.T, f func(t *testing.T, s *Server, c *client)) {
	for _, tr := range []string{"memory", "http"} {
		for _, era := range eras {
			t.Run(tr+"/"+era, func(t *testing.T) {
				s, _ := newServer(t, "testdata/bundle", 3)
				var c *client
				if tr == "memory" {
					c = inMemory(t, s, era)
				} else {
					c = overHTTP(t, s, era)
				}
				f(t, s, c)
			})
		}
	}
}

func TestCapabilitiesAndInstructions(t *testing.T) {
	forEach(t, func(t *testing.T, s *Server, c *client) {
		r := c.InitializeResult()
		caps := r.Capabilities
		//lint:ignore SA1019 checks that the deprecated capability is not declared
		if caps.Logging != nil {
			t.Error("logging capability advertised (deprecated by 2026-07-28)")
		}
		if caps.Tools == nil || caps.Tools.ListChanged {
			t.Errorf("tools capability %+v, want tools without listChanged", caps.Tools)
		}
		// listChanged and subscribe are promised only where the notifications are sent: not to a
		// legacy session over stateless HTTP, which has no stream to receive them on.
		notify := !strings.Contains(t.Name(), "http/2025")
		if caps.Resources == nil || caps.Resources.ListChanged != notify || caps.Resources.Subscribe != notify {
			t.Errorf("resources capability %+v, want listChanged and subscribe %v", caps.Resources, notify)
		}
		if caps.Prompts != nil {
			t.Error("prompts capability advertised")
		}
		if !strings.Contains(r.Instructions, "5 concepts") || !strings.Contains(r.Instructions, "human-reviewed > machine-confirmed > unverified") {
			t.Errorf("instructions: %q", r.Instructions)
		}
	})
}

func TestResourcesListPaginated(t *testing.T) {
	// Five concepts and two indexes, three to a page: pages of 3, 3 and 1, in URI order.
	want := []string{
		"okf://caching/deep/notes", "okf://caching/index", "okf://caching/kv-cache",
		"okf://caching/old-cache", "okf://caching/paged-attention", "okf://glossary", "okf://index",
	}
	forEach(t, func(t *testing.T, s *Server, c *client) {
		var got []string
		var sizes []int
		cursor := ""
		for range 10 {
			res, err := c.ListResources(context.Background(), &mcp.ListResourcesParams{Cursor: cursor})
			if err != nil {
				t.Fatal(err)
			}
			if res.TTLMs <= 0 {
				t.Errorf("resources/list ttlMs %d, want > 0", res.TTLMs)
			}
			sizes = append(sizes, len(res.Resources))
			for _, r := range res.Resources {
				got = append(got, r.URI)
				if r.MIMEType != "text/markdown" {
					t.Errorf("%s: mimeType %q", r.URI, r.MIMEType)
				}
				if r.URI == "okf://caching/kv-cache" && (r.Title != "KV cache" || r.Name != "caching/kv-cache") {
					t.Errorf("kv-cache resource %+v", r)
				}
			}
			cursor = res.NextCursor
			if cursor == "" {
				break
			}
		}
		if !slices.Equal(got, want) {
			t.Errorf("listed\n%v\nwant\n%v", got, want)
		}
		if !slices.Equal(sizes, []int{3, 3, 1}) {
			t.Errorf("page sizes %v, want [3 3 1]", sizes)
		}
		_, err := c.ListResources(context.Background(), &mcp.ListResourcesParams{Cursor: "!!not a cursor"})
		var je *jsonrpc.Error
		if !errors.As(err, &je) || je.Code != jsonrpc.CodeInvalidParams {
			t.Errorf("bad cursor: %v, want invalid params", err)
		}
		tmpl, err := c.ListResourceTemplates(context.Background(), nil)
		// okf:// for concepts and indexes; skill:// for the skill's files (skills.go).
		if err != nil || len(tmpl.ResourceTemplates) != 2 || tmpl.ResourceTemplates[0].URITemplate != "okf://{+id}" || tmpl.ResourceTemplates[1].URITemplate != "skill://{+path}" {
			t.Errorf("templates %+v, %v", tmpl, err)
		}
	})
}

func TestResourcesRead(t *testing.T) {
	forEach(t, func(t *testing.T, s *Server, c *client) {
		for _, tc := range []struct{ uri, file string }{
			{"okf://caching/kv-cache", "caching/kv-cache.md"},
			{"okf://index", "index.md"},
			{"okf://caching/index", "caching/index.md"},
		} {
			res, err := c.ReadResource(context.Background(), &mcp.ReadResourceParams{URI: tc.uri})
			if err != nil {
				t.Fatalf("%s: %v", tc.uri, err)
			}
			want, _ := os.ReadFile(filepath.Join("testdata/bundle", tc.file))
			if len(res.Contents) != 1 || res.Contents[0].Text != string(want) || res.Contents[0].MIMEType != "text/markdown" {
				t.Errorf("%s: got %+v", tc.uri, res.Contents)
			}
		}
		for _, uri := range []string{"okf://caching/nope", "okf://caching/kv-cache.md", "okf://../index", "file:///etc/passwd"} {
			_, err := c.ReadResource(context.Background(), &mcp.ReadResourceParams{URI: uri})
			var je *jsonrpc.Error
			if !errors.As(err, &je) || je.Code != jsonrpc.CodeInvalidParams {
				t.Errorf("%s: %v, want resource not found (%d)", uri, err, jsonrpc.CodeInvalidParams)
			}
		}
	})
}

func TestSearch(t *testing.T) {
	forEach(t, func(t *testing.T, s *Server, c *client) {
		var out SearchOut
		call(t, c, "search", map[string]any{"query": "KV cache"}, &out)
		// kv-cache has both words in its title; paged-attention has them in its description; the
		// deprecated old-cache (which says "cache" five times) is left out.
		if ids := hitIDs(out); len(ids) < 2 || ids[0] != "caching/kv-cache" || ids[1] != "caching/paged-attention" || slices.Contains(ids, "caching/old-cache") {
			t.Fatalf("KV cache: %v", ids)
		}
		h := out.Hits[0]
		want := Hit{ID: "caching/kv-cache", URI: "okf://caching/kv-cache", Title: "KV cache",
			Description: "Keeping attention keys and values of past tokens between decoding steps.",
			Type:        "Concept", Status: "stable", Tier: "machine-confirmed", Freshness: "expiring", Score: h.Score}
		if h != want || h.Score <= out.Hits[1].Score {
			t.Errorf("first hit %+v\nwant %+v", h, want)
		}

		call(t, c, "search", map[string]any{"query": "cache", "include_deprecated": true}, &out)
		if !slices.Contains(hitIDs(out), "caching/old-cache") {
			t.Errorf("include_deprecated: %v", hitIDs(out))
		}
		for _, h := range out.Hits {
			if h.ID == "caching/old-cache" && (h.Status != "deprecated" || h.Freshness != "stale") {
				t.Errorf("old-cache hit %+v", h)
			}
		}
		call(t, c, "search", map[string]any{"query": "cache attention terms", "min_tier": "human-reviewed"}, &out)
		if ids := hitIDs(out); !slices.Equal(ids, []string{"glossary"}) {
			t.Errorf("min_tier human-reviewed: %v", ids)
		}
		call(t, c, "search", map[string]any{"query": "memory", "tag": "MEMORY"}, &out)
		if ids := hitIDs(out); !slices.Equal(ids, []string{"caching/kv-cache", "caching/deep/notes"}) && !slices.Equal(ids, []string{"caching/deep/notes", "caching/kv-cache"}) {
			t.Errorf("tag memory: %v", ids)
		}
		// (The note's path, caching/deep/notes, matches "cache" by stem: a word only in other types.)
		call(t, c, "search", map[string]any{"query": "attention", "type": "note"}, &out)
		if len(out.Hits) != 0 {
			t.Errorf("type note, query attention: %v", hitIDs(out))
		}
		call(t, c, "search", map[string]any{"query": "wörds ＫＶ", "k": 1}, &out)
		if ids := hitIDs(out); !slices.Equal(ids, []string{"caching/deep/notes"}) {
			t.Errorf("unicode: %v", ids)
		}
		call(t, c, "search", map[string]any{"query": "inference", "k": 1}, &out)
		if len(out.Hits) != 1 {
			t.Errorf("k=1: %d hits", len(out.Hits))
		}
	})
}

func TestToolErrors(t *testing.T) {
	forEach(t, func(t *testing.T, s *Server, c *client) {
		for _, tc := range []struct {
			tool string
			args map[string]any
			want string
		}{
			{"search", map[string]any{"query": "  ,,, "}, "no words"},
			{"search", map[string]any{"query": "cache", "k": -1}, "k must be"},
			{"search", map[string]any{"query": "cache", "min_tier": "gold"}, "min_tier"},
			{"search", map[string]any{}, "query"},
			{"search", map[string]any{"query": 42}, "query"},
			{"read", map[string]any{"id": ""}, "id is empty"},
			{"read", map[string]any{"id": "caching/nope"}, `no concept "caching/nope"`},
			{"read", map[string]any{"id": "glossary", "offset": -3}, "offset"},
			{"read", map[string]any{"id": "glossary", "max_words": "many"}, "max_words"},
			{"browse", map[string]any{"dir": "nope"}, `no folder "nope"`},
			{"browse", map[string]any{"dir": "glossary.md"}, "no folder"},
			{"trust", map[string]any{"id": "caching/index"}, "folder index"},
			{"trust", map[string]any{"id": "../../etc/passwd"}, "no concept"},
		} {
			res := call(t, c, tc.tool, tc.args, nil)
			if !res.IsError || !strings.Contains(text(res), tc.want) {
				t.Errorf("%s %v: error=%v %q, want a tool error with %q", tc.tool, tc.args, res.IsError, text(res), tc.want)
			}
		}
		_, err := c.CallTool(context.Background(), &mcp.CallToolParams{Name: "write", Arguments: map[string]any{}})
		if err == nil {
			t.Error("unknown tool: no error")
		}
	})
}

func TestRead(t *testing.T) {
	forEach(t, func(t *testing.T, s *Server, c *client) {
		var out ReadOut
		res := call(t, c, "read", map[string]any{"id": "caching/kv-cache", "max_words": 5}, &out)
		// Derived by hand from the file: machine-confirmed (process:ci-check verified it), stable
		// (no status), stale_after 10 days after now (expiring within 30d), one source.
		trustLine := "Trust: machine-confirmed stable; verified by process:ci-check (process) at 2026-11-01T00:00:00Z; " +
			"generated by reference_agent/v1 (agent) at 2026-10-20T00:00:00Z; expiring at 2026-12-10T00:00:00Z; 1 source."
		if out.Trust != trustLine {
			t.Errorf("trust line\n%s\nwant\n%s", out.Trust, trustLine)
		}
		// The body's words are "#", "KV", "cache", "A", "decoder", …: five of them, spacing kept.
		if out.Text != "# KV cache\n\nA decoder" || out.Next != 5 || out.Words != 31 {
			t.Errorf("text %q next %d words %d", out.Text, out.Next, out.Words)
		}
		if want := trustLine + "\n\n# KV cache\n\nA decoder\n\n[words 1-5 of 31; continue with offset=5]"; text(res) != want {
			t.Errorf("content\n%s\nwant\n%s", text(res), want)
		}
		out = ReadOut{}
		call(t, c, "read", map[string]any{"id": "caching/kv-cache", "offset": 28}, &out)
		if out.Text != "layers and heads." || out.Next != 0 {
			t.Errorf("offset 28: %q next %d", out.Text, out.Next)
		}
		call(t, c, "read", map[string]any{"id": "okf://caching/paged-attention"}, &out)
		if want := "Trust: unverified draft; never verified; generated by process:okf-gen (process) at 2026-11-30T12:00:00Z; no stale_after; 1 source."; out.Trust != want {
			t.Errorf("paged-attention trust\n%s\nwant\n%s", out.Trust, want)
		}
		call(t, c, "read", map[string]any{"id": "caching/deep/notes"}, &out)
		if want := "Trust: unverified stable; never verified; no stale_after; 1 source; derives from flagged caching/old-cache (unverified, stale, deprecated)."; out.Trust != want {
			t.Errorf("notes trust\n%s\nwant\n%s", out.Trust, want)
		}
		call(t, c, "read", map[string]any{"id": "caching/index"}, &out)
		if !strings.HasPrefix(out.Trust, "Trust: this is a folder index") || !strings.Contains(out.Text, "[Paged attention](paged-attention.md)") {
			t.Errorf("index read %+v", out)
		}
	})
}

func TestBrowse(t *testing.T) {
	forEach(t, func(t *testing.T, s *Server, c *client) {
		var out BrowseOut
		call(t, c, "browse", map[string]any{}, &out)
		want := BrowseOut{Dir: "", Index: "okf://index", Total: 2, Entries: []Entry{
			{Title: "Caching", Dir: "caching"},
			{Title: "Glossary", ID: "glossary", Type: "Reference", Tier: "human-reviewed"},
		}}
		if !equalJSON(out, want) {
			t.Errorf("root\n%+v\nwant\n%+v", out, want)
		}
		call(t, c, "browse", map[string]any{"dir": "caching/"}, &out)
		want = BrowseOut{Dir: "caching", Index: "okf://caching/index", Total: 4, Entries: []Entry{
			{Title: "KV cache", ID: "caching/kv-cache", Type: "Concept", Tier: "machine-confirmed"},
			{Title: "Paged attention", ID: "caching/paged-attention", Type: "Concept", Tier: "unverified", Status: "draft"},
			{Title: "Old cache note", ID: "caching/old-cache", Type: "Concept", Tier: "unverified", Status: "deprecated"},
			{Title: "deep", Dir: "caching/deep"},
		}}
		if !equalJSON(out, want) {
			t.Errorf("caching\n%+v\nwant\n%+v", out, want)
		}
		call(t, c, "browse", map[string]any{"dir": "caching/deep"}, &out)
		want = BrowseOut{Dir: "caching/deep", Total: 1, Entries: []Entry{
			{Title: "Deep notes", ID: "caching/deep/notes", Type: "Note", Tier: "unverified"},
		}}
		if !equalJSON(out, want) {
			t.Errorf("caching/deep\n%+v\nwant\n%+v", out, want)
		}
	})
}

func equalJSON(a, b any) bool {
	x, _ := json.Marshal(a)
	y, _ := json.Marshal(b)
	return string(x) == string(y)
}

func TestTrust(t *testing.T) {
	forEach(t, func(t *testing.T, s *Server, c *client) {
		var out TrustOut
		call(t, c, "trust", map[string]any{"id": "caching/paged-attention"}, &out)
		want := `{"id":"caching/paged-attention","tier":"unverified","status":"draft","freshness":"none",` +
			`"generated":{"by":"process:okf-gen","kind":"process","at":"2026-11-30T12:00:00Z"},"verified":[],"changed_since_verified":false,` +
			`"sources":[{"resource":"/caching/kv-cache.md","title":"KV cache"}],"derives_from":["caching/kv-cache"],` +
			`"flagged_upstream":[],"used_by":[]}`
		if got, _ := json.Marshal(out); string(got) != want {
			t.Errorf("paged-attention\n%s\nwant\n%s", got, want)
		}
		call(t, c, "trust", map[string]any{"id": "caching/kv-cache"}, &out)
		if out.StaleAfter != "2026-12-10T00:00:00Z" || out.Freshness != "expiring" || len(out.Verified) != 1 || out.Verified[0] != (Stamp{By: "process:ci-check", Kind: "process", At: "2026-11-01T00:00:00Z"}) ||
			!slices.Equal(out.UsedBy, []string{"caching/paged-attention"}) || !slices.Equal(out.DerivesFrom, []string{"glossary"}) {
			t.Errorf("kv-cache %+v", out)
		}
		call(t, c, "trust", map[string]any{"id": "caching/deep/notes"}, &out)
		if len(out.FlaggedUpstream) != 1 || out.FlaggedUpstream[0].ID != "caching/old-cache" {
			t.Errorf("notes upstream %+v", out.FlaggedUpstream)
		}
		call(t, c, "trust", map[string]any{"id": "caching/old-cache"}, &out)
		if out.StaleAfter != "2026-01-01" || out.Freshness != "stale" || len(out.Notes) == 0 {
			t.Errorf("old-cache %+v", out)
		}
	})
}

func TestToolsReadOnly(t *testing.T) {
	s, _ := newServer(t, "testdata/bundle", 0)
	c := inMemory(t, s, eras[0])
	res, err := c.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tool := range res.Tools {
		names = append(names, tool.Name)
		a := tool.Annotations
		if a == nil || !a.ReadOnlyHint || a.DestructiveHint == nil || *a.DestructiveHint || a.OpenWorldHint == nil || *a.OpenWorldHint {
			t.Errorf("%s: annotations %+v, want read-only, not destructive, closed world", tool.Name, a)
		}
	}
	if !slices.Equal(names, []string{"browse", "read", "search", "trust"}) {
		t.Errorf("tools %v", names)
	}
}
