package trust

import (
	"bytes"
	"encoding/json"
	"fmt"
	stdhtml "html"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/okf-tools/okf/internal/escape"
	"github.com/okf-tools/okf/okf"
	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/extension"
	gmhtml "github.com/yuin/goldmark/renderer/html"
)

// Hostile strings a pull request can put in a bundle. Each format must print them as text.
const (
	// A title that, as Markdown or HTML, would show an image, a link, ping a user, close the
	// <details> the concept table sits in, and run a script.
	hostileTitle = `![x](https://evil.example/p.png) [click](https://evil.example) @octocat </details><script>alert(1)</script>`
	// A type that would start a forged workflow command on the next line of a CI log, colour the
	// terminal and reverse the rest of the line.
	hostileType = "Note\n::error file=a.md::forged\x1b[31m\u202eevil"
	// An actor with a carriage return and a table break.
	hostileBy = "human:ana\r::warning::x | y"
)

// hostileBundle has a concept whose ID (its file name), title, type, actor and attester are all
// hostile, and a concept deriving from it so the ID shows up in lineage and the queue's evidence.
func hostileBundle(t *testing.T) (*Report, string) {
	t.Helper()
	id := "evil`id|</details>\n::error::x"
	fsys := fstest.MapFS{
		id + ".md": {Data: []byte("---\n" +
			"type: Attested Computation\n" +
			"title: '" + hostileTitle + "'\n" +
			"runtime: \"sqlite\\n::error::runtime\"\n" +
			"attester:\n  resource: \"/x\\u202e.py\"\n" +
			"stale_after: 2026-01-01T00:00:00Z\n" +
			"---\nBody.\n")},
		"user.md": {Data: []byte("---\n" +
			"type: \"" + strings.NewReplacer("\n", `\n`, "\x1b", `\e`, "\u202e", `\u202e`).Replace(hostileType) + "\"\n" +
			"title: ok\n" +
			"verified: { by: \"" + strings.NewReplacer("\r", `\r`).Replace(hostileBy) + "\", at: 2026-11-01T00:00:00Z }\n" +
			"sources:\n  - resource: \"/" + strings.ReplaceAll(id, "\n", `\n`) + ".md\"\n" +
			"---\nBody.\n")},
	}
	b, err := okf.Load(fsys, okf.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	r := Build(b, Options{Now: fixtureNow, ExpiringWithin: okf.DefaultExpiringWindow})
	if c := r.all[id]; c == nil || c.Title != hostileTitle {
		t.Fatalf("the fixture did not load as meant: %+v", r.all)
	}
	if c := r.all["user"]; c == nil || c.Type != hostileType || len(c.Upstream) != 1 || c.Verified == nil || c.Verified.By != hostileBy {
		t.Fatalf("the fixture did not load as meant: %+v", c)
	}
	return r, id
}

func hostileOut(t *testing.T, r *Report, format string, o WriteOptions) string {
	t.Helper()
	var buf bytes.Buffer
	if err := Write(&buf, r, format, o); err != nil {
		t.Fatal(err)
	}
	return buf.String()
}

// noRawControls: no byte of the output is a control character other than the newlines that end
// lines, and no bidi override is left, so no bundle text starts a line or moves the cursor.
func noRawControls(t *testing.T, out string) {
	t.Helper()
	for i, r := range out {
		if r != '\n' && (r < 0x20 || r == 0x7f || r >= 0x80 && r <= 0x9f || r == '\u202e') {
			t.Errorf("raw control %U at byte %d: %q", r, i, out[max(0, i-30):min(len(out), i+30)])
			return
		}
	}
	for _, line := range strings.Split(out, "\n") {
		if strings.HasPrefix(strings.TrimSpace(line), "::") {
			t.Errorf("a line a CI runner reads as a workflow command: %q", line)
		}
	}
}

func TestHostileText(t *testing.T) {
	r, _ := hostileBundle(t)
	out := hostileOut(t, r, "text", WriteOptions{})
	noRawControls(t, out)
	// The escapes are visible, so the reviewer sees what the bundle holds.
	for _, want := range []string{`evil` + "`" + `id|</details>\n::error::x`, `Note\n::error file=`, `human:ana\r::warning::x | y`} {
		if !strings.Contains(out, want) {
			t.Errorf("text output lacks the escaped %q", want)
		}
	}
	// The same holds on a terminal, in colour and cut to its width.
	out = hostileOut(t, r, "text", WriteOptions{Color: true, Width: 60})
	plain := stripANSI(out)
	if strings.ContainsRune(plain, '\x1b') {
		t.Error("an escape character other than okf's colours reached the terminal")
	}
}

func TestHostileMarkdown(t *testing.T) {
	r, id := hostileBundle(t)
	out := hostileOut(t, r, "markdown", WriteOptions{Top: DefaultTop, MaxChars: DefaultMaxChars})
	noRawControls(t, out)
	for _, bad := range []string{"![x]", "](https://", " @octocat", "\n::"} {
		if strings.Contains(out, bad) {
			t.Errorf("markdown holds %q unescaped", bad)
		}
	}
	// The title is there, escaped as escape.Markdown does it; the ID is a code span.
	if !strings.Contains(out, escape.Markdown(hostileTitle)) {
		t.Error("the title is not printed escaped")
	}
	if !strings.Contains(out, escape.MarkdownCode(id)) {
		t.Error("the ID is not printed as a code span")
	}

	// Rendered as GitHub does (GFM, raw HTML passed through as GitHub passes <details>), the
	// bundle's text made no element: the only raw HTML is okf's own <details> and <summary>, and
	// the title's cell holds exactly the title as text.
	var html bytes.Buffer
	md := goldmark.New(goldmark.WithExtensions(extension.GFM), goldmark.WithRendererOptions(gmhtml.WithUnsafe()))
	if err := md.Convert([]byte(out), &html); err != nil {
		t.Fatal(err)
	}
	h := html.String()
	for _, bad := range []string{"<img", "<a ", "<script"} {
		if strings.Contains(h, bad) {
			t.Errorf("rendered markdown holds %s", bad)
		}
	}
	if o, c := strings.Count(h, "<details>"), strings.Count(h, "</details>"); o != c || o != 3 {
		t.Errorf("rendered markdown has %d <details> and %d </details>, want 3 of each (directories, concepts, lineage)", o, c)
	}
	cell := regexp.MustCompile(`<td>([^<]*octocat[^<]*)</td>`).FindStringSubmatch(h)
	if cell == nil || stdhtml.UnescapeString(cell[1]) != hostileTitle {
		t.Errorf("the title's cell = %q, want the title as text", cell)
	}
	idCell := regexp.MustCompile(`<tr>\s*<td><code>([^<]*)</code></td>\s*<td>Attested Computation</td>`).FindStringSubmatch(h)
	if idCell == nil || stdhtml.UnescapeString(idCell[1]) != escape.Control(id) {
		t.Errorf("the ID's cell = %q, want %q as code", idCell, escape.Control(id))
	}
}

// TestHostileHTML: html/template makes every string text; the JSON the page's script reads cannot
// close its <script> element and gives back the exact (control-escaped) strings.
func TestHostileHTML(t *testing.T) {
	r, id := hostileBundle(t)
	out := hostileOut(t, r, "html", WriteOptions{Top: DefaultTop})
	noRawControls(t, out)
	if strings.Contains(out, "<script>alert") || strings.Contains(out, "<img") {
		t.Error("bundle text became markup")
	}
	if n := strings.Count(out, "</script>"); n != 3 {
		t.Errorf("%d </script> in the page, want 3 (error trap, data, script)", n)
	}
	m := regexp.MustCompile(`(?s)<script type="application/json" id="data">(.*?)</script>`).FindStringSubmatch(out)
	if m == nil {
		t.Fatal("no data script")
	}
	var data struct {
		C [][]any `json:"c"`
	}
	if err := json.Unmarshal([]byte(m[1]), &data); err != nil {
		t.Fatalf("data is not JSON: %v", err)
	}
	found := false
	for _, c := range data.C {
		if c[0] == escape.Control(id) {
			found = true
			if c[1] != hostileTitle {
				t.Errorf("title in the data = %q, want %q", c[1], hostileTitle)
			}
		}
	}
	if !found {
		t.Errorf("the hostile concept is not in the page's data: %v", data.C)
	}
	if !strings.Contains(out, "<h2") || !strings.Contains(out, `&lt;/details&gt;`) {
		t.Error("the queue does not print the hostile ID as text")
	}

	if _, err := os.Stat(chromiumPath); err != nil {
		t.Skip("chromium absent:", err)
	}
	page := filepath.Join(t.TempDir(), "hostile.html")
	if err := os.WriteFile(page, []byte(out), 0o644); err != nil {
		t.Fatal(err)
	}
	dom, logs := chromium(t, "file://"+filepath.ToSlash(page), "--dump-dom", "--enable-logging=stderr", "--v=0")
	if !strings.Contains(dom, `data-ready="1"`) {
		t.Fatalf("the page script did not finish; DOM starts:\n%.600s", dom)
	}
	if m := errorsRE.FindStringSubmatch(dom); m != nil {
		t.Errorf("script errors: %s", m[1])
	}
	if strings.Contains(logs, "Uncaught") {
		t.Errorf("console errors:\n%s", logs)
	}
	if strings.Contains(dom, "<img") || strings.Contains(dom, "<script>alert") {
		t.Error("the rendered page holds markup from the bundle")
	}
	if !strings.Contains(dom, `<td class="title">![x](https://evil.example/p.png) [click](https://evil.example) @octocat &lt;/details&gt;&lt;script&gt;alert(1)&lt;/script&gt;</td>`) {
		t.Error("the title is not shown as text in its cell")
	}
}

// TestHostileJSON: JSON carries the values as they are (a consumer escapes for its own output).
func TestHostileJSON(t *testing.T) {
	r, id := hostileBundle(t)
	out := hostileOut(t, r, "json", WriteOptions{})
	var back struct {
		Concepts []struct{ ID, Title string } `json:"concepts"`
	}
	if err := json.Unmarshal([]byte(out), &back); err != nil {
		t.Fatal(err)
	}
	if len(back.Concepts) != 2 || back.Concepts[0].ID != id || back.Concepts[0].Title != hostileTitle {
		t.Errorf("JSON does not carry the values as they are: %+v", back.Concepts)
	}
}

// A chain of n verified concepts each deriving from the previous one, down to k unverified ones,
// gave every concept all k upstreams, each with its chain of up to n IDs: n²k IDs kept and
// printed (2,000 concepts: 16 MB of text, 78 MB of JSON). Each concept lists at most MaxUpstream
// upstreams (UpstreamMore counts the rest) and each chain at most MaxChain IDs, its first and
// last halves (Elided counts the hops left out), so the report grows linearly.
func TestLineageBounded(t *testing.T) {
	const n, k = 300, 40
	fsys := fstest.MapFS{}
	var roots strings.Builder
	for j := range k {
		fsys[fmt.Sprintf("r%02d.md", j)] = &fstest.MapFile{Data: []byte("---\ntype: Note\ntitle: R\n---\nBody.\n")}
		fmt.Fprintf(&roots, "  - resource: /r%02d.md\n", j)
	}
	verified := "verified: { by: \"human:alice\", at: 2026-11-01T00:00:00Z }\n"
	for i := range n {
		src := fmt.Sprintf("  - resource: /c%03d.md\n", i-1)
		if i == 0 {
			src = roots.String()
		}
		fsys[fmt.Sprintf("c%03d.md", i)] = &fstest.MapFile{Data: []byte("---\ntype: Note\ntitle: C\n" + verified + "sources:\n" + src + "---\nBody.\n")}
	}
	b, err := okf.Load(fsys, okf.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	r := Build(b, Options{Now: fixtureNow, ExpiringWithin: okf.DefaultExpiringWindow})
	last := r.all[fmt.Sprintf("c%03d", n-1)]
	if last == nil || len(last.Upstream) != MaxUpstream || last.UpstreamMore != k-MaxUpstream {
		t.Fatalf("last concept: %d upstreams listed, %d more; want %d and %d", len(last.Upstream), last.UpstreamMore, MaxUpstream, k-MaxUpstream)
	}
	u := last.Upstream[0]
	// The full chain: c299, c298, …, c000, r00 (n+1 IDs); kept: the first and last MaxChain/2.
	if len(u.Chain) != MaxChain || u.Elided != n+1-MaxChain || u.ID != "r00" ||
		u.Chain[0] != "c299" || u.Chain[MaxChain/2-1] != fmt.Sprintf("c%03d", n-MaxChain/2) ||
		u.Chain[MaxChain/2] != fmt.Sprintf("c%03d", MaxChain/2-2) || u.Chain[MaxChain-1] != "r00" {
		t.Errorf("chain %v, %d elided", u.Chain, u.Elided)
	}
	total := 0
	for _, c := range r.all {
		for _, u := range c.Upstream {
			total += len(u.Chain)
		}
	}
	if total > n*MaxUpstream*MaxChain {
		t.Errorf("%d chain IDs kept for %d concepts", total, n)
	}
	// The text report shows the elision.
	out := hostileOut(t, r, "text", WriteOptions{})
	if !strings.Contains(out, fmt.Sprintf("c%03d -> … %d more -> c%03d", n-MaxChain/2, n+1-MaxChain, MaxChain/2-2)) {
		t.Errorf("text report does not show the elided chain")
	}
}

// A value a person writes can be megabytes long. The formats people read (text, markdown, html)
// repeat at most escape.MaxShown bytes of each, and the notes quote at most that much; json, which
// tools read, keeps every value whole. Uncut, two concepts with 100 KB values printed 1.5 MB of
// text, and the markdown report left both rows out to stay within its budget.
func TestLongValuesClippedForPeople(t *testing.T) {
	long := strings.Repeat("x", 100_000)
	fsys := fstest.MapFS{
		"a.md": {Data: []byte("---\ntype: " + long + "\ntitle: " + long + "\nstatus: " + long +
			"\nstale_after: " + long + "\ngenerated:\n  by: " + long + "\n  at: 2026-01-01T00:00:00Z\n" +
			"verified:\n  by: " + long + "\n  at: 2026-02-01T00:00:00Z\n---\nBody.\n")},
		"c.md": {Data: []byte("---\ntype: Note\ntitle: C\nverified: " + long + "\n---\nBody.\n")},
	}
	b, err := okf.Load(fsys, okf.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	r := Build(b, Options{Now: fixtureNow, ExpiringWithin: okf.DefaultExpiringWindow})
	for _, format := range []string{"text", "markdown", "html"} {
		var buf bytes.Buffer
		if err := Write(&buf, r, format, WriteOptions{MaxChars: DefaultMaxChars}); err != nil {
			t.Fatal(err)
		}
		out := buf.String()
		if n := strings.Count(out, strings.Repeat("x", escape.MaxShown+1)); n > 0 || buf.Len() > 64*1024 {
			t.Errorf("%s: %d bytes, %d runs of more than %d bytes of one value", format, buf.Len(), n, escape.MaxShown)
		}
		if format != "html" && !strings.Contains(out, strings.Repeat("x", escape.MaxShown)+"…") {
			t.Errorf("%s: no value shown clipped with …", format)
		}
		if strings.Contains(out, "left out") {
			t.Errorf("%s: rows left out for the long values:\n%.2000s", format, out)
		}
	}
	var buf bytes.Buffer
	if err := Write(&buf, r, "json", WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(buf.String(), `"title": "`+long+`"`) {
		t.Error("json: the title is not kept whole")
	}
}
