package serve

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestListPageCursorCounted: a resources/list page is at most maxListPage bytes on the wire,
// cursor included. The page's budget reserves room for the cursor from the URI at the page's
// nominal end (here the bundle's last, a short one), but the cursor is made from the last URI the
// page holds, which may be 12 KB long (deep folders of spaces: %20 each), its base64
// 16 KB.
func TestListPageCursorCounted(t *testing.T) {
	// Titles of a few lengths move where the page ends, so that some page's last resource leaves
	// less room than its cursor takes.
	for v := range 6 {
		t.Run(fmt.Sprint(v), func(t *testing.T) { listPageCase(t, strings.Repeat("t", 1+50*v)) })
	}
}

func listPageCase(t *testing.T, title string) {
	dir := t.TempDir()
	deep := strings.Repeat(" ", 250)
	for i := range 80 {
		parts := []string{fmt.Sprintf("%02d", i) + strings.Repeat(" ", 110)}
		for range 14 {
			parts = append(parts, deep)
		}
		d := filepath.Join(append([]string{dir}, parts...)...)
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Skip("this file system takes no such names:", err)
		}
		os.WriteFile(filepath.Join(d, "c.md"), []byte("---\ntype: Concept\ntitle: "+title+"\n---\nbody\n"), 0o644)
	}
	os.WriteFile(filepath.Join(dir, "zz.md"), []byte("---\ntype: Concept\ntitle: Z\n---\nbody\n"), 0o644)
	s, _ := newServer(t, dir, 0)
	got := wire(t, s, `"method":"resources/list","params":{}`)
	if !strings.Contains(got[1], `"nextCursor"`) {
		t.Fatalf("the page has no cursor: %.300s", got[1])
	}
	if n := len(got[1]); n > maxListPage {
		t.Errorf("a resources/list page of %d bytes on the wire, over %d", n, maxListPage)
	}
}

// TestResourceReadURICounted: a resource read is at most maxResource bytes on the wire. The check
// measures the file's text as JSON against maxResource less the envelope, but the answer also
// carries the resource's URI, which a deep path of spaces (%20 each) makes 11 KB.
func TestResourceReadURICounted(t *testing.T) {
	dir := t.TempDir()
	parts := []string{dir}
	for range 15 {
		parts = append(parts, strings.Repeat(" ", 250))
	}
	d := filepath.Join(parts...)
	if err := os.MkdirAll(d, 0o755); err != nil {
		t.Skip("this file system takes no such names:", err)
	}
	// A text whose JSON is exactly the limit the check allows: maxResource-envelope bytes.
	var b strings.Builder
	b.WriteString("---\ntype: Concept\ntitle: T\n---\n")
	line := strings.Repeat("word ", 799) + "\n"
	size := func() int { return jsonStringSize(b.String()) }
	for size()+jsonStringSize(line)-2 <= maxResource-envelope {
		b.WriteString(line)
	}
	b.WriteString(strings.Repeat("x", maxResource-envelope-size()-2) + "\n")
	if size() != maxResource-envelope {
		t.Fatalf("text of %d bytes as JSON, want %d", size(), maxResource-envelope)
	}
	os.WriteFile(filepath.Join(d, "c.md"), []byte(b.String()), 0o644)
	s, _ := newServer(t, dir, 0)
	snap := s.snap.Load()
	uri := snap.docs[0].uri
	got := wire(t, s, fmt.Sprintf(`"method":"resources/read","params":{"uri":%q}`, uri))
	// Refused (the whole answer would pass the limit) or served within it.
	if n := len(got[1]); n > maxResource {
		t.Errorf("a resource read of %d bytes on the wire, over %d", n, maxResource)
	}
}
