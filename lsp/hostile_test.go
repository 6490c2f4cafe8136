package lsp

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/okf-tools/okf/internal/escape"
	"github.com/yuin/goldmark"
)

// at0 is the position of the first occurrence of sub in text, plus skip bytes (ASCII text).
func at0(t *testing.T, text, sub string, skip int) position {
	t.Helper()
	i := strings.Index(text, sub)
	if i < 0 {
		t.Fatalf("%q not in the text", sub)
	}
	i += skip
	return position{Line: strings.Count(text[:i], "\n"), Character: i - (strings.LastIndex(text[:i], "\n") + 1)}
}

// TestHoverEscapesBundleText: a hover is Markdown the editor renders, and every name and value in
// it comes from the bundle: a file name, a link target, a status. None may end its code span or
// become a link, an image or HTML in the hover, whatever backticks and brackets it holds.
func TestHoverEscapesBundleText(t *testing.T) {
	evil := func(c string) string { return "x` [pwn" + c + "](https://evil.example/" + c + ") ``y" }
	a := "---\ntype: Note\ntitle: Alpha\ndescription: The first note.\nstatus: " + evil("s") + " <img src=x> `z\n---\n# Alpha\n\n" +
		"One [C](<" + evil("c") + ".md>).\n\n" +
		"Two [N](<nope" + evil("n") + ".md>).\n\n" +
		"Three [F](<" + evil("f") + ".txt>).\n\n" +
		"Four [D](d.md).\n"
	files := map[string]string{
		"index.md":         "---\nokf_version: \"0.2\"\n---\n# Bundle\n\n* [Alpha](a.md) - The first.\n",
		"a.md":             a,
		evil("c") + ".md":  "---\ntype: Note\ntitle: C\ndescription: The c note.\n---\n# C\n",
		evil("f") + ".txt": "plain\n",
		"d.md":             "---\ntype: Note\ntitle: D\ndescription: The d note.\nstatus: \"[pwnd](https://evil.example/d)\"\n---\n# D\n",
	}
	root := writeBundle(t, files)
	cl := newClient(t, Options{Now: fixed})
	cl.init(root)
	ap := filepath.Join(root, "a.md")
	cl.open(ap, a)
	for _, where := range []struct {
		name string
		pos  position
	}{
		{"status value", at0(t, a, "status: ", 9)},
		{"link to a concept", at0(t, a, "[C](", 5)},
		{"link to nothing", at0(t, a, "[N](", 5)},
		{"link to a file", at0(t, a, "[F](", 5)},
		{"link to a concept with a hostile status", at0(t, a, "[D](", 5)},
	} {
		res, rerr := cl.request("textDocument/hover", textDocumentPositionParams{TextDocument: textDocumentIdentifier{URI: uriOf(ap)}, Position: where.pos})
		if rerr != nil {
			t.Fatalf("%s: %v", where.name, rerr.Message)
		}
		var h hover
		json.Unmarshal(res, &h)
		if h.Contents.Value == "" {
			t.Errorf("%s: no hover (%s)", where.name, res)
			continue
		}
		var html bytes.Buffer
		if err := goldmark.Convert([]byte(h.Contents.Value), &html); err != nil {
			t.Fatal(err)
		}
		for _, bad := range []string{"<a ", "<img", "raw HTML"} {
			if strings.Contains(html.String(), bad) {
				t.Errorf("%s: the hover's Markdown renders %q from the bundle:\n%s\n%s", where.name, bad, h.Contents.Value, html.String())
			}
		}
	}
}

// countingReader serves n bytes of 'a' (no line break) and counts what was read.
type countingReader struct{ left, read int }

func (r *countingReader) Read(p []byte) (int, error) {
	if r.left == 0 {
		return 0, io.EOF
	}
	n := min(len(p), r.left)
	for i := range p[:n] {
		p[i] = 'a'
	}
	r.left -= n
	r.read += n
	return n, nil
}

// TestHeaderLineBounded: a header line that never ends is refused once it passes the header
// limit, not read whole into memory first.
func TestHeaderLineBounded(t *testing.T) {
	r := &countingReader{left: 64 << 20}
	err := Serve(context.Background(), r, io.Discard, Options{})
	if err == nil || !strings.Contains(err.Error(), "header") {
		t.Errorf("Serve = %v, want a header error", err)
	}
	if r.read > 1<<20 {
		t.Errorf("read %d bytes of a header line before refusing it, want at most 1 MiB", r.read)
	}
}

// TestReferencesLinear: references to a concept linked thousands of times from one large file
// convert each link's position with that file's text read and indexed once, not once per link
// (which cost the file's size per link: quadratic in a hostile file).
func TestReferencesLinear(t *testing.T) {
	var a strings.Builder
	a.WriteString("---\ntype: Note\ntitle: Alpha\ndescription: The first note.\n---\n# Alpha\n\n")
	const n = 5000
	for i := 0; i < n; i++ {
		a.WriteString("See [Beta](b.md) again, and again.\n")
	}
	files := map[string]string{
		"index.md": "---\nokf_version: \"0.2\"\n---\n# Bundle\n\n* [Alpha](a.md) - The first.\n* [Beta](b.md) - The second.\n",
		"a.md":     a.String(),
		"b.md":     "---\ntype: Note\ntitle: Beta\ndescription: The second note.\n---\n# Beta\n",
	}
	root := writeBundle(t, files)
	cl := newClient(t, Options{Now: fixed})
	cl.init(root)
	ap, bp := filepath.Join(root, "a.md"), filepath.Join(root, "b.md")
	cl.open(ap, a.String())
	cl.open(bp, files["b.md"])
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	res, rerr := cl.request("textDocument/references", map[string]any{"textDocument": map[string]any{"uri": uriOf(bp)}, "position": position{Line: 5}, "context": map[string]any{"includeDeclaration": true}})
	runtime.ReadMemStats(&after)
	if rerr != nil {
		t.Fatal(rerr.Message)
	}
	var locs []location
	json.Unmarshal(res, &locs)
	if len(locs) != n+1 {
		t.Fatalf("%d references, want %d", len(locs), n+1)
	}
	if got := locs[n-1]; got.Range.Start.Line != 7+n-1 || got.Range.Start.Character != 4 {
		t.Errorf("reference %d at %+v, want line %d character 4", n-1, got.Range.Start, 7+n-1)
	}
	// The answer itself is a few MB; re-reading a.md (175 KB) per link is about 2 GB.
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 100<<20 {
		t.Errorf("references allocated %d MB for %d links in one file, want a bound linear in the file", alloc>>20, n)
	}
}

// TestCodeActionsBounded: each quick fix offered is proven by applying it to the file, so a
// request over a range holding a thousand fixable findings (a whole-file selection) cost a
// thousand parses of the file: at most maxQuickFixes are offered, with the fix-all.
func TestCodeActionsBounded(t *testing.T) {
	var a strings.Builder
	a.WriteString("---\ntype: Note\ntitle: Alpha\ndescription: The first note.\nverified:\n")
	for i := 0; i < 1000; i++ {
		a.WriteString("  - {by: human:x, at: 2026-01-01}\n")
	}
	a.WriteString("---\n# Alpha\n\nBody.\n")
	files := map[string]string{
		"index.md": "---\nokf_version: \"0.2\"\n---\n# Bundle\n\n* [Alpha](a.md) - The first.\n",
		"a.md":     a.String(),
	}
	root := writeBundle(t, files)
	cl := newClient(t, Options{Now: fixed})
	cl.init(root)
	ap := filepath.Join(root, "a.md")
	cl.open(ap, a.String())
	res, rerr := cl.request("textDocument/codeAction", map[string]any{"textDocument": map[string]any{"uri": uriOf(ap)},
		"range": lspRange{position{0, 0}, position{1100, 0}}, "context": map[string]any{"diagnostics": []any{}}})
	if rerr != nil {
		t.Fatal(rerr.Message)
	}
	var acts []codeAction
	json.Unmarshal(res, &acts)
	quick, all := 0, 0
	for _, a := range acts {
		switch a.Kind {
		case "quickfix":
			quick++
		case "source.fixAll.okf":
			all++
		}
	}
	if quick == 0 || quick > maxQuickFixes || all != 1 {
		t.Errorf("%d quick fixes and %d fix-all, want 1 to %d and 1", quick, all, maxQuickFixes)
	}
}

// TestCompletionSymbolsHostileText: values the bundle's other concepts use are offered as
// completions, and inserted as written when picked: one holding a line break would write new
// frontmatter lines (a key, the closing ---) into the user's file. Such values are not offered;
// names in symbol lists are escaped like every one-line output.
func TestCompletionSymbolsHostileText(t *testing.T) {
	files := map[string]string{
		"index.md": "---\nokf_version: \"0.2\"\n---\n# Bundle\n\n* [Alpha](a.md) - A.\n* [Beta](b.md) - B.\n",
		"a.md":     "---\ntype: Note\ntitle: Alpha\ndescription: The first note.\ntags: []\n---\n# Alpha\n",
		"b.md": "---\ntype: \"Evil\\u202eType\\n::error ::x\"\ntitle: Beta\ndescription: The second note.\n" +
			"tags: [\"ok\", \"x\\n---\\nevil: 1\", \"bidi\\u202ex\"]\n\"key\\u202e\\nx\": 1\n---\n# Beta\n",
	}
	root := writeBundle(t, files)
	cl := newClient(t, Options{Now: fixed})
	cl.init(root)
	ap, bp := filepath.Join(root, "a.md"), filepath.Join(root, "b.md")
	a := "---\ntype: Note\ntitle: Alpha\ndescription: The first note.\ntags: \n---\n# Alpha\n"
	cl.open(ap, a)
	res, _ := cl.request("textDocument/completion", textDocumentPositionParams{TextDocument: textDocumentIdentifier{URI: uriOf(ap)}, Position: position{Line: 4, Character: 6}})
	var list completionList
	json.Unmarshal(res, &list)
	sawOK := false
	for _, it := range list.Items {
		sawOK = sawOK || it.Label == "ok"
		if okfEscaped(it.Label) != it.Label || okfEscaped(it.InsertText) != it.InsertText {
			t.Errorf("completion offers %q", it.Label)
		}
	}
	if !sawOK {
		t.Errorf("completion of tags: %s, want the tag ok", res)
	}
	res, _ = cl.request("workspace/symbol", workspaceSymbolParams{Query: "beta"})
	if bad := controlStrings(res); len(bad) > 0 {
		t.Errorf("workspace symbols hold control text: %q", bad)
	}
	cl.open(bp, files["b.md"])
	res, _ = cl.request("textDocument/documentSymbol", map[string]any{"textDocument": map[string]any{"uri": uriOf(bp)}})
	if bad := controlStrings(res); len(bad) > 0 {
		t.Errorf("document symbols hold control text: %q", bad)
	}
}

func okfEscaped(s string) string { return escape.Control(s) }

// controlStrings are the strings of a JSON value that hold control text.
func controlStrings(data []byte) []string {
	var v any
	json.Unmarshal(data, &v)
	var out []string
	var walk func(any)
	walk = func(v any) {
		switch v := v.(type) {
		case string:
			if escape.Control(v) != v {
				out = append(out, v)
			}
		case []any:
			for _, x := range v {
				walk(x)
			}
		case map[string]any:
			for _, x := range v {
				walk(x)
			}
		}
	}
	walk(v)
	return out
}
