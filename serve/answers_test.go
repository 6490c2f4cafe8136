package serve

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// writeBigIndexBundle writes a root index listing n concepts (as a real root index of 6,064
// entries does), each with a long title and description.
func writeBigIndexBundle(t *testing.T, n int) string {
	t.Helper()
	dir := t.TempDir()
	var idx strings.Builder
	idx.WriteString("# All\n\n")
	for i := range n {
		name := fmt.Sprintf("c%05d", i)
		desc := strings.Repeat("described at length ", 20)
		body := fmt.Sprintf("---\ntype: Concept\ntitle: Concept %d %s\ndescription: %s\n---\nbody %d\n", i, strings.Repeat("t", 200), desc, i)
		if err := os.WriteFile(filepath.Join(dir, name+".md"), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(&idx, "- [Concept %d](%s.md) — %s\n", i, name, desc)
	}
	if err := os.WriteFile(filepath.Join(dir, "index.md"), []byte(idx.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

// TestBrowsePaginated: a folder of more entries than a page is given a page at a time, each saying
// the total and whether it was cut, the cursor reaching every entry exactly once; entries are
// compact (no descriptions) and a page stays within its byte cap. The old browse stopped at 1,000
// entries without a total or a way on, and carried every description.
func TestBrowsePaginated(t *testing.T) {
	const n = 1200
	s, _ := newServer(t, writeBigIndexBundle(t, n), 0)
	c := inMemory(t, s, eras[1])
	seen := map[string]int{}
	cursor := ""
	pages := 0
	for {
		args := map[string]any{"limit": maxBrowse}
		if cursor != "" {
			args["cursor"] = cursor
		}
		res, err := c.CallTool(context.Background(), &mcp.CallToolParams{Name: "browse", Arguments: args})
		if err != nil || res.IsError {
			t.Fatalf("browse %v: %v %s", args, err, text(res))
		}
		raw, _ := json.Marshal(res)
		if len(raw) > browseAnswer+envelope {
			t.Errorf("page %d: %d bytes, over the cap of %d", pages, len(raw), browseAnswer)
		}
		if strings.Contains(string(raw), "described at length") {
			t.Fatalf("entries carry descriptions: %.300s", raw)
		}
		var out BrowseOut
		b, _ := json.Marshal(res.StructuredContent)
		json.Unmarshal(b, &out)
		if out.Total != n {
			t.Fatalf("total %d, want %d", out.Total, n)
		}
		for _, e := range out.Entries {
			seen[e.ID]++
		}
		pages++
		if out.Truncated != (out.NextCursor != "") {
			t.Fatalf("truncated %v with cursor %q", out.Truncated, out.NextCursor)
		}
		if !out.Truncated {
			break
		}
		if pages > n {
			t.Fatal("the cursor does not advance")
		}
		cursor = out.NextCursor
	}
	if len(seen) != n {
		t.Errorf("%d entries reached, want %d", len(seen), n)
	}
	for id, k := range seen {
		if k != 1 {
			t.Errorf("%s listed %d times", id, k)
		}
	}
	// The default page.
	var out BrowseOut
	call(t, c, "browse", map[string]any{}, &out)
	if len(out.Entries) != defaultBrowse || !out.Truncated || out.Total != n {
		t.Errorf("default page: %d entries of %d, truncated %v; want %d", len(out.Entries), out.Total, out.Truncated, defaultBrowse)
	}
	for _, bad := range []map[string]any{{"limit": maxBrowse + 1}, {"limit": 0.5}, {"cursor": "nope"}} {
		res := call(t, c, "browse", bad, nil)
		if !res.IsError {
			t.Errorf("browse %v: not refused", bad)
		}
	}
	res := call(t, c, "browse", map[string]any{"limit": maxBrowse + 1}, nil)
	if !strings.Contains(text(res), fmt.Sprintf("from 1 to %d", maxBrowse)) {
		t.Errorf("limit past the range: %q, want the range stated", text(res))
	}
}

// TestReadWithoutGenMarkers: read gives the body a person reads, the trust line first and no okf
// gen block markers (meant for people editing the file); the resource is the file as written.
func TestReadWithoutGenMarkers(t *testing.T) {
	dir := t.TempDir()
	body := "---\ntype: Concept\ntitle: Gen\n---\n<!-- okf-gen:begin sha256:0123456789ab (okf gen updates this block while nobody edits it; add your own sections outside it) -->\n# Gen\n\nThe generated text.\n<!-- okf-gen:end -->\n\nA person's note.\n"
	if err := os.WriteFile(filepath.Join(dir, "gen.md"), []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	s, _ := newServer(t, dir, 0)
	c := inMemory(t, s, eras[0])
	var out ReadOut
	res := call(t, c, "read", map[string]any{"id": "gen"}, &out)
	got := text(res)
	if !strings.HasPrefix(got, "Trust: ") || strings.Contains(got, "okf-gen") || !strings.Contains(got, "# Gen\n\nThe generated text.") || !strings.Contains(got, "A person's note.") {
		t.Errorf("read:\n%s", got)
	}
	if strings.Contains(out.Text, "okf-gen") || !strings.HasPrefix(out.Text, "# Gen") {
		t.Errorf("structured text: %q", out.Text)
	}
	var hits SearchOut
	call(t, c, "search", map[string]any{"query": "nobody edits sha256"}, &hits)
	if len(hits.Hits) != 0 {
		t.Errorf("the markers' words are searched: %v", hits.Hits)
	}
}

// TestMarkdownLinks: inline links are found with their text and target; a text over two lines, or
// far from its bracket, is not a link; a body of nothing but link syntax is read in one pass.
func TestMarkdownLinks(t *testing.T) {
	var got []string
	markdownLinks([]byte("see [the cache](kv-cache.md) and [x](../a.md#s \"t\")\n[not\n](b.md) ![img](c.png)"), func(text, target string) {
		got = append(got, text+"|"+target)
	})
	want := []string{"the cache|kv-cache.md", "x|../a.md#s", "img|c.png"}
	if strings.Join(got, ",") != strings.Join(want, ",") {
		t.Errorf("links %q, want %q", got, want)
	}
	n := 0
	markdownLinks([]byte(strings.Repeat("[](", 1<<20)), func(string, string) { n++ })
	if n != 0 {
		t.Errorf("%d links in a body of unclosed ones", n)
	}
}
