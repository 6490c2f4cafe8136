package serve

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// wire serves lines (after an initialize handshake) over stdio and returns each response as it was
// written, by id: the whole answer, every byte a host receives.
func wire(t *testing.T, s *Server, reqs ...string) map[int]string {
	t.Helper()
	lines := []string{
		`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`,
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
	}
	for i, r := range reqs {
		lines = append(lines, fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,%s}`, i+1, r))
	}
	var buf bytes.Buffer
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	if err := s.ServeStdio(ctx, strings.NewReader(strings.Join(lines, "\n")+"\n"), &buf, nil); err != nil {
		t.Fatal(err)
	}
	got := map[int]string{}
	for _, line := range strings.Split(strings.TrimSpace(buf.String()), "\n") {
		var m struct {
			ID *int `json:"id"`
		}
		if json.Unmarshal([]byte(line), &m) == nil && m.ID != nil {
			got[*m.ID] = line
		}
	}
	return got
}

func toolCall(name string, args any) string {
	a, _ := json.Marshal(args)
	return fmt.Sprintf(`"method":"tools/call","params":{"name":%q,"arguments":%s}`, name, a)
}

// structured decodes a tools/call response line's structuredContent into out.
func structured(t *testing.T, line string, out any) {
	t.Helper()
	var m struct {
		Result struct {
			IsError           bool            `json:"isError"`
			StructuredContent json.RawMessage `json:"structuredContent"`
		} `json:"result"`
	}
	if err := json.Unmarshal([]byte(line), &m); err != nil || m.Result.IsError {
		t.Fatalf("response %.300s: %v", line, err)
	}
	if err := json.Unmarshal(m.Result.StructuredContent, out); err != nil {
		t.Fatalf("structured content %.300s: %v", m.Result.StructuredContent, err)
	}
}

// writeHeavyBundle builds a bundle whose answers would each be megabytes if their parts were capped
// one by one: bodies of characters JSON writes six bytes for, long IDs and titles, many entries,
// many sources, long flagged lineage.
func writeHeavyBundle(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	w := func(name, text string) {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	lt := strings.Repeat("<", 300)
	// 4,000 words of 60 '<': 244 KB as written, 1.4 MB as JSON, twice (text and structuredContent).
	w("lt.md", "---\ntype: Concept\ntitle: Lt\n---\n"+strings.Repeat(strings.Repeat("<", 60)+" ", 5000))
	// One word of 1 MB of control characters (\u0001 in JSON), and one of '&'.
	w("ctl.md", "---\ntype: Concept\ntitle: Ctl\n---\n"+strings.Repeat("\x01", 1<<20)+" end\n")
	w("amp.md", "---\ntype: Concept\ntitle: Amp\n---\n"+strings.Repeat("&", 3<<20)+"\n")
	// A folder of 1,000 concepts with long titles and descriptions, listed by an index with long
	// titles too, under a long folder name; each also matches the search "needle".
	long := strings.Repeat("d&<", 60)
	var idx strings.Builder
	idx.WriteString("# Many\n\n")
	for i := range 1000 {
		name := fmt.Sprintf("%s/%s/c%04d", long, long, i)
		w(name+".md", fmt.Sprintf("---\ntype: Concept\ntitle: %q\ndescription: %q\ntags: [needle]\n---\nneedle\n", lt+lt, lt+lt+lt))
		fmt.Fprintf(&idx, "- [%s](%s/c%04d.md) — %s\n", lt, long, i, lt+lt)
	}
	w(long+"/index.md", idx.String())
	// A concept with 200 sources of long titles and resources, and 30 flagged upstreams with long IDs.
	var src strings.Builder
	src.WriteString("sources:\n")
	for i := range 200 {
		fmt.Fprintf(&src, "  - { id: %q, resource: %q, title: %q }\n", fmt.Sprintf("s%d%s", i, lt), "https://example.com/"+lt+lt, lt+lt+lt)
	}
	for i := range 30 {
		up := fmt.Sprintf("%s/%s/up%02d", strings.Repeat("u", 200), strings.Repeat("v", 200), i)
		w(up+".md", "---\ntype: Concept\ntitle: Up\nstatus: draft\n---\nbody\n")
		fmt.Fprintf(&src, "  - { resource: %q }\n", "/"+up+".md")
	}
	w("cited.md", "---\ntype: Concept\ntitle: Cited\n"+src.String()+"---\nbody\n")
	return dir
}

// TestAnswerCaps: every answer, as written on the wire, stays within its cap, whatever the bundle,
// and says what it left out.
func TestAnswerCaps(t *testing.T) {
	s, _ := newServer(t, writeHeavyBundle(t), 0)
	long := strings.Repeat("d&<", 60)
	reqs := []string{
		toolCall("read", map[string]any{"id": "lt", "max_words": 4000}),
		toolCall("read", map[string]any{"id": "ctl", "max_words": 4000}),
		toolCall("read", map[string]any{"id": "amp", "max_words": 4000}),
		toolCall("browse", map[string]any{"dir": long}),
		toolCall("browse", map[string]any{"dir": long + "/" + long}),
		toolCall("search", map[string]any{"query": "needle", "k": 50}),
		toolCall("trust", map[string]any{"id": "cited"}),
		toolCall("read", map[string]any{"id": "cited"}),
		`"method":"resources/list","params":{}`,
		`"method":"resources/read","params":{"uri":"okf://amp"}`,
	}
	got := wire(t, s, reqs...)
	for i, r := range reqs {
		line, ok := got[i+1]
		if !ok {
			t.Errorf("%s: no answer", r)
			continue
		}
		limit := maxAnswerBytes
		switch {
		case strings.Contains(r, "resources/list"):
			limit = maxListPage
		case strings.Contains(r, "resources/read"):
			limit = maxResource
		}
		if len(line) > limit {
			t.Errorf("%.80s…: answer of %d bytes, over the %d-byte cap", r, len(line), limit)
		}
		t.Logf("%.60s…: %d bytes", r, len(line))
	}
	// What was left out is said, and a read can go on from where it stopped.
	var rd ReadOut
	structured(t, got[1], &rd)
	if rd.Next <= 0 || rd.Next >= 5000 || rd.Words != 5000 {
		t.Errorf("lt: next %d of %d words, want a continuation", rd.Next, rd.Words)
	}
	var b BrowseOut
	structured(t, got[5], &b)
	if len(b.Entries) == 0 || !b.Truncated || b.NextCursor == "" || b.Total != 1000 {
		t.Errorf("browse: %d entries of %d, truncated %v, cursor %q, want a first page of 1000 and a cursor", len(b.Entries), b.Total, b.Truncated, b.NextCursor)
	}
	var sr SearchOut
	structured(t, got[6], &sr)
	if len(sr.Hits) == 0 || sr.Omitted == 0 || len(sr.Hits)+sr.Omitted != 50 {
		t.Errorf("search: %d hits, %d omitted, want 50 in all", len(sr.Hits), sr.Omitted)
	}
	var tr TrustOut
	structured(t, got[7], &tr)
	if len(tr.Sources) == 0 || !strings.Contains(strings.Join(tr.Notes, "\n"), "left out") {
		t.Errorf("trust: %d sources, notes %q, want some sources and a note of what was left out", len(tr.Sources), tr.Notes)
	}
	if !strings.Contains(got[10], `"error"`) {
		t.Errorf("resources/read of a file JSON writes as 18 MB: %.200s", got[10])
	}
}

// TestListCursorOnlyOurs: a resources/list cursor that is not one this server sent (base64 of no
// okf:// URI) is invalid params, as docs/serve.md says, not an empty page.
func TestListCursorOnlyOurs(t *testing.T) {
	s, _ := newServer(t, copyBundle(t), 0)
	c := inMemory(t, s, eras[0])
	_, err := c.ListResources(context.Background(), &mcp.ListResourcesParams{Cursor: "Z2FyYmFnZQ"})
	if err == nil || !strings.Contains(err.Error(), "invalid cursor") {
		t.Errorf("cursor of garbage: %v", err)
	}
}
