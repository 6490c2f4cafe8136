package lsp

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/okf-tools/okf/lint"
)

// client drives a server through the protocol over in-memory pipes, as an editor does.
type client struct {
	t     *testing.T
	c     *conn
	next  int
	diags map[string][]lspDiagnostic // the last publishDiagnostics per URI
	done  chan error
	notes []string // methods of the notifications seen
	// published is the URI of every publishDiagnostics, in order.
	published []string
}

func newClient(t *testing.T, opts Options) *client {
	t.Helper()
	cr, sw := io.Pipe()
	sr, cw := io.Pipe()
	cl := &client{t: t, c: newConn(cr, cw), diags: map[string][]lspDiagnostic{}, done: make(chan error, 1)}
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	go func() { cl.done <- Serve(ctx, sr, sw, opts); sw.Close() }()
	return cl
}

func (cl *client) send(method string, params any, id bool) json.RawMessage {
	cl.t.Helper()
	data, _ := json.Marshal(params)
	m := &message{Method: method, Params: data}
	if id {
		cl.next++
		m.ID = json.RawMessage(fmt.Sprint(cl.next))
	}
	if err := cl.c.write(m); err != nil {
		cl.t.Fatal(err)
	}
	return m.ID
}

// request sends a request and returns its response, recording notifications that come first.
func (cl *client) request(method string, params any) (json.RawMessage, *rpcError) {
	cl.t.Helper()
	id := cl.send(method, params, true)
	for {
		m := cl.read()
		if m.Method != "" {
			cl.note(m)
			continue
		}
		if string(m.ID) == string(id) {
			return m.Result, m.Error
		}
	}
}

func (cl *client) read() *message {
	cl.t.Helper()
	data, err := cl.c.read()
	if err != nil {
		cl.t.Fatal(err)
	}
	var m message
	if err := json.Unmarshal(data, &m); err != nil {
		cl.t.Fatal(err)
	}
	return &m
}

func (cl *client) note(m *message) {
	cl.notes = append(cl.notes, m.Method)
	if m.Method == "textDocument/publishDiagnostics" {
		var p publishDiagnosticsParams
		json.Unmarshal(m.Params, &p)
		cl.diags[p.URI] = p.Diagnostics
		cl.published = append(cl.published, p.URI)
	}
}

// sync makes sure every notification the server sent before now has been read: a request is
// answered after them.
func (cl *client) sync() {
	cl.t.Helper()
	cl.request("workspace/symbol", workspaceSymbolParams{Query: "\x00none"})
}

func (cl *client) init(root string) {
	cl.t.Helper()
	res, err := cl.request("initialize", map[string]any{"rootUri": uriOf(root), "capabilities": map[string]any{}})
	if err != nil {
		cl.t.Fatalf("initialize: %v", err.Message)
	}
	if !strings.Contains(string(res), `"hoverProvider":true`) || !strings.Contains(string(res), `"positionEncoding":"utf-16"`) {
		cl.t.Fatalf("initialize: %s", res)
	}
	cl.send("initialized", map[string]any{}, false)
}

func (cl *client) open(path, text string) {
	cl.send("textDocument/didOpen", didOpenParams{TextDocument: textDocumentItem{URI: uriOf(path), LanguageID: "markdown", Version: 1, Text: text}}, false)
	cl.sync()
}

func (cl *client) change(path, text string, version int) {
	cl.send("textDocument/didChange", map[string]any{"textDocument": map[string]any{"uri": uriOf(path), "version": version},
		"contentChanges": []map[string]any{{"text": text}}}, false)
	cl.sync()
}

func (cl *client) codes(path string) []string {
	var out []string
	for _, d := range cl.diags[uriOf(path)] {
		out = append(out, d.Code)
	}
	return out
}

func writeBundle(t *testing.T, files map[string]string) string {
	t.Helper()
	root := t.TempDir()
	for p, s := range files {
		full := filepath.Join(root, filepath.FromSlash(p))
		os.MkdirAll(filepath.Dir(full), 0o755)
		if err := os.WriteFile(full, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

var fixture = map[string]string{
	"index.md": "---\nokf_version: \"0.2\"\n---\n# Bundle\n\n* [Alpha](a.md) - The first.\n* [Beta](b.md) - The second.\n",
	"a.md": "---\ntype: Note\ntitle: Alpha\ndescription: The first note.\nsources:\n  - id: src\n    resource: https://example.com/a\n" +
		"stale_after: 2026-09-01T00:00:00Z\n---\n# Alpha\n\nSee [Beta](b.md) and the claim[^src].\n\n## Details\n\nMore.\n\n[^src]: The source.\n",
	"b.md": "---\ntype: Table\ntitle: Beta\ndescription: The second note.\nstatus: draft\nverified:\n  - by: human:ann\n    at: 2026-05-01T00:00:00Z\n" +
		"stale_after: 2026-06-01T00:00:00Z\n---\n# Beta\n\nBack to [Alpha](a.md).\n",
}

// fixtureWith is the fixture bundle with extra files added (or replaced).
func fixtureWith(extra map[string]string) map[string]string {
	files := map[string]string{}
	for k, v := range fixture {
		files[k] = v
	}
	for k, v := range extra {
		files[k] = v
	}
	return files
}

var june = time.Date(2026, 6, 15, 0, 0, 0, 0, time.UTC)

func fixed() time.Time { return june }

// TestDiagnosticsAsYouType: opening a concept publishes its findings; an edit that adds a broken
// link and a date-only timestamp publishes them, at their place; undoing it clears them. A title
// made the same as another concept's is reported on the other open file too (a cross-file rule),
// though that file did not change.
func TestDiagnosticsAsYouType(t *testing.T) {
	root := writeBundle(t, fixture)
	cl := newClient(t, Options{Now: fixed})
	cl.init(root)
	a, b := filepath.Join(root, "a.md"), filepath.Join(root, "b.md")
	cl.open(a, fixture["a.md"])
	cl.open(b, fixture["b.md"])
	if got := cl.codes(a); len(got) != 0 {
		t.Errorf("a.md: %v, want none", got)
	}
	if got := strings.Join(cl.codes(b), " "); got != lint.Stale.Code {
		t.Errorf("b.md: %v, want %s", got, lint.Stale.Code)
	}
	edited := strings.Replace(fixture["a.md"], "More.", "More in [gone](gone.md).", 1)
	edited = strings.Replace(edited, "stale_after: 2026-09-01T00:00:00Z", "stale_after: 2026-09-01", 1)
	cl.change(a, edited, 2)
	got := strings.Join(cl.codes(a), " ")
	if !strings.Contains(got, lint.LinkBroken.Code) || !strings.Contains(got, lint.TimestampDateOnly.Code) {
		t.Fatalf("after the edit: %s", got)
	}
	for _, d := range cl.diags[uriOf(a)] {
		if d.Code == lint.LinkBroken.Code && (d.Range.Start.Line != 15 || d.Range.Start.Character != 8) {
			t.Errorf("link-broken at %+v, want line 15 character 8", d.Range.Start)
		}
		if d.CodeDescription == nil || !strings.HasSuffix(d.CodeDescription.Href, "#"+strings.ToLower(d.Code)+"-"+lint.ByCode(d.Code).Name) {
			t.Errorf("%s links to %+v", d.Code, d.CodeDescription)
		}
	}
	cl.change(a, strings.Replace(fixture["a.md"], "title: Alpha", "title: Beta", 1), 3)
	if got := strings.Join(cl.codes(a), " "); strings.Contains(got, lint.LinkBroken.Code) {
		t.Errorf("the broken link is still reported after it was removed: %s", got)
	}
	if got := strings.Join(cl.codes(b), " "); !strings.Contains(got, lint.TitleDuplicate.Code) {
		t.Errorf("b.md after a.md took its title: %s, want %s", got, lint.TitleDuplicate.Code)
	}
	cl.change(a, fixture["a.md"], 4)
	if got := strings.Join(cl.codes(b), " "); got != lint.Stale.Code {
		t.Errorf("b.md after a.md's title came back: %v, want only %s (its stale_after has passed)", got, lint.Stale.Code)
	}
}

func (cl *client) at(path string, line, char int) textDocumentPositionParams {
	return textDocumentPositionParams{TextDocument: textDocumentIdentifier{URI: uriOf(path)}, Position: position{Line: line, Character: char}}
}

// TestHoverDefinitionReferences: a link to a concept hovers with its title, type, trust tier (who
// verified it, when), status and staleness, and goes to its file; a footnote goes to its source
// entry; a concept's references are every link to it; a timestamp hovers with how long ago.
func TestHoverDefinitionReferences(t *testing.T) {
	root := writeBundle(t, fixture)
	cl := newClient(t, Options{Now: fixed})
	cl.init(root)
	a, b := filepath.Join(root, "a.md"), filepath.Join(root, "b.md")
	cl.open(a, fixture["a.md"])

	res, _ := cl.request("textDocument/hover", cl.at(a, 11, 7)) // on [Beta](b.md)
	var h hover
	json.Unmarshal(res, &h)
	for _, want := range []string{"**Beta**", "`Table`", "human-reviewed", "human:ann", "2026-05-01", "draft", "stale** since 2026-06-01"} {
		if !strings.Contains(h.Contents.Value, want) {
			t.Errorf("hover on the link: %q lacks %q", h.Contents.Value, want)
		}
	}
	res, _ = cl.request("textDocument/hover", cl.at(a, 7, 16)) // on stale_after's value
	json.Unmarshal(res, &h)
	if !strings.Contains(h.Contents.Value, "2026-09-01 00:00 UTC") || !strings.Contains(h.Contents.Value, "in 2 months") {
		t.Errorf("hover on stale_after: %q", h.Contents.Value)
	}

	cl.change(a, fixture["a.md"]+"\n<!-- okf-lint-disable OKF103 -->\n", 2)
	res, _ = cl.request("textDocument/hover", cl.at(a, 19, 25)) // on the rule code
	json.Unmarshal(res, &h)
	if !strings.Contains(h.Contents.Value, "**OKF103 description-not-one-sentence**") {
		t.Errorf("hover on a rule code: %q", h.Contents.Value)
	}
	res, _ = cl.request("textDocument/references", map[string]any{"textDocument": map[string]any{"uri": uriOf(a)}, "position": position{Line: 11, Character: 35}, "context": map[string]any{"includeDeclaration": true}})
	var flocs []location
	json.Unmarshal(res, &flocs)
	if len(flocs) != 2 || flocs[0].Range.Start.Line != 5 || flocs[1].Range.Start.Line != 11 {
		t.Errorf("references of the footnote: %s, want the source id (line 5) and the use (line 11)", res)
	}

	res, _ = cl.request("textDocument/definition", cl.at(a, 11, 7))
	var loc location
	json.Unmarshal(res, &loc)
	if loc.URI != uriOf(b) || loc.Range.Start.Line != 0 {
		t.Errorf("definition of the link: %s", res)
	}
	res, _ = cl.request("textDocument/definition", cl.at(a, 11, 35)) // on [^src]
	json.Unmarshal(res, &loc)
	if loc.URI != uriOf(a) || loc.Range.Start.Line != 5 || loc.Range.Start.Character != 8 {
		t.Errorf("definition of the footnote: %s, want a.md line 5 character 8 (the id)", res)
	}

	cl.open(b, fixture["b.md"])
	res, _ = cl.request("textDocument/references", map[string]any{"textDocument": map[string]any{"uri": uriOf(b)}, "position": position{Line: 10}, "context": map[string]any{"includeDeclaration": true}})
	var locs []location
	json.Unmarshal(res, &locs)
	var where []string
	for _, l := range locs {
		where = append(where, fmt.Sprintf("%s:%d", filepath.Base(strings.TrimPrefix(l.URI, "file://")), l.Range.Start.Line))
	}
	if got := strings.Join(where, " "); got != "a.md:11 index.md:6" {
		t.Errorf("references to b.md: %q, want a.md:11 index.md:6", got)
	}
}

// TestCompletionActionsSymbols: link targets, status values and tags are offered where they are
// written; a date-only timestamp's fix is a code action whose edit removes the finding; the
// document's symbols are its frontmatter keys and nested headings; workspace symbols find concepts
// by title.
func TestCompletionActionsSymbols(t *testing.T) {
	root := writeBundle(t, fixture)
	cl := newClient(t, Options{Now: fixed})
	cl.init(root)
	a := filepath.Join(root, "a.md")
	text := strings.Replace(fixture["a.md"], "stale_after: 2026-09-01T00:00:00Z", "stale_after: 2026-09-01\nstatus: ", 1) + "\nSee [x](\n"
	cl.open(a, text)
	lines := strings.Split(text, "\n")
	last := len(lines) - 2

	res, _ := cl.request("textDocument/completion", cl.at(a, last, len("See [x](")))
	if !strings.Contains(string(res), `"label":"b.md"`) || !strings.Contains(string(res), `"detail":"Beta"`) {
		t.Errorf("link completion: %s", res)
	}
	res, _ = cl.request("textDocument/completion", cl.at(a, 8, len("status: ")))
	for _, v := range []string{"draft", "stable", "deprecated"} {
		if !strings.Contains(string(res), `"label":"`+v+`"`) {
			t.Errorf("status completion lacks %s: %s", v, res)
		}
	}

	res, _ = cl.request("textDocument/codeAction", codeActionParams{TextDocument: textDocumentIdentifier{URI: uriOf(a)}, Range: lspRange{position{Line: 7}, position{Line: 7, Character: 20}}})
	var acts []codeAction
	json.Unmarshal(res, &acts)
	var fix *codeAction
	for i := range acts {
		if acts[i].Kind == "quickfix" {
			fix = &acts[i]
		}
	}
	if fix == nil || len(fix.Edit.Changes[uriOf(a)]) != 1 {
		t.Fatalf("code actions: %s", res)
	}
	e := fix.Edit.Changes[uriOf(a)][0]
	if e.NewText != "2026-09-01T00:00:00Z" || e.Range.Start.Line != 7 {
		t.Errorf("the fix: %+v", e)
	}

	res, _ = cl.request("textDocument/documentSymbol", map[string]any{"textDocument": map[string]any{"uri": uriOf(a)}})
	var syms []documentSymbol
	json.Unmarshal(res, &syms)
	if len(syms) != 2 || syms[0].Name != "frontmatter" || syms[1].Name != "Alpha" || len(syms[1].Children) != 1 || syms[1].Children[0].Name != "Details" {
		t.Errorf("document symbols: %s", res)
	}
	res, _ = cl.request("workspace/symbol", workspaceSymbolParams{Query: "bet"})
	if !strings.Contains(string(res), `"name":"Beta"`) || strings.Contains(string(res), `"name":"Alpha"`) {
		t.Errorf("workspace symbols: %s", res)
	}
}

// TestProtocolErrors: a request before initialize, an unknown method, an id of null and params of
// the wrong shape get the protocol's errors; shutdown then exit ends the server cleanly, exit
// alone with an error.
func TestProtocolErrors(t *testing.T) {
	cl := newClient(t, Options{Now: fixed})
	if _, err := cl.request("textDocument/hover", cl.at("/x.md", 0, 0)); err == nil || err.Code != codeNotInitialized {
		t.Errorf("before initialize: %+v", err)
	}
	cl.init(t.TempDir())
	if _, err := cl.request("textDocument/rename", map[string]any{}); err == nil || err.Code != codeMethodNotFound {
		t.Errorf("unknown method: %+v", err)
	}
	if _, err := cl.request("textDocument/hover", "not an object"); err == nil || err.Code != codeInvalidParams || strings.Contains(err.Message, "json") {
		t.Errorf("bad params: %+v", err)
	}
	cl.c.write(&message{ID: json.RawMessage("null"), Method: "textDocument/hover", Params: json.RawMessage("{}")})
	if m := cl.read(); m.Error == nil || m.Error.Code != codeInvalidRequest {
		t.Errorf("id null: %+v", m)
	}
	if _, err := cl.request("shutdown", nil); err != nil {
		t.Fatal(err)
	}
	cl.send("exit", nil, false)
	if err := <-cl.done; err != nil {
		t.Errorf("after shutdown and exit: %v", err)
	}

	cl = newClient(t, Options{})
	cl.init(t.TempDir())
	cl.send("exit", nil, false)
	if err := <-cl.done; err == nil {
		t.Error("exit without shutdown returned nil")
	}
}

// TestMessageTooLarge: a Content-Length over the limit ends the connection with an error before
// the body is read.
func TestMessageTooLarge(t *testing.T) {
	in := strings.NewReader(fmt.Sprintf("Content-Length: %d\r\n\r\n{", MaxMessageSize+1))
	err := Serve(context.Background(), in, io.Discard, Options{})
	if err == nil || !strings.Contains(err.Error(), "over the size limit") {
		t.Errorf("Serve = %v", err)
	}
}

// TestWatchRegistration: a client that can register file watchers is asked to watch the bundle's
// Markdown files and configuration after initialized; a file deleted outside the editor is then
// seen: the link to it is reported broken.
func TestWatchRegistration(t *testing.T) {
	root := writeBundle(t, fixture)
	cl := newClient(t, Options{Now: fixed})
	res, _ := cl.request("initialize", map[string]any{"rootUri": uriOf(root), "capabilities": map[string]any{
		"workspace": map[string]any{"didChangeWatchedFiles": map[string]any{"dynamicRegistration": true}}}})
	if res == nil {
		t.Fatal("no initialize result")
	}
	cl.send("initialized", map[string]any{}, false)
	m := cl.read()
	if m.Method != "client/registerCapability" || !strings.Contains(string(m.Params), `"globPattern":"**/*.md"`) || !strings.Contains(string(m.Params), ".okf.yaml") {
		t.Fatalf("after initialized: %s %s", m.Method, m.Params)
	}
	cl.c.write(&message{ID: m.ID, Result: json.RawMessage("null")})
	a := filepath.Join(root, "a.md")
	cl.open(a, fixture["a.md"])
	if got := cl.codes(a); len(got) != 0 {
		t.Fatalf("a.md: %v", got)
	}
	os.Remove(filepath.Join(root, "b.md"))
	cl.send("workspace/didChangeWatchedFiles", didChangeWatchedFilesParams{Changes: []fileEvent{{URI: uriOf(filepath.Join(root, "b.md")), Type: 3}}}, false)
	cl.sync()
	if got := strings.Join(cl.codes(a), " "); !strings.Contains(got, lint.LinkBroken.Code) {
		t.Errorf("after b.md was deleted: %q, want %s", got, lint.LinkBroken.Code)
	}
}

// TestHoverBeforePauseStillPublishes: with a debounce, a request right after a keystroke checks the
// text first (its answer is about the text as it is); the findings of that check are still
// published when the pause ends.
func TestHoverBeforePauseStillPublishes(t *testing.T) {
	root := writeBundle(t, fixture)
	cl := newClient(t, Options{Now: fixed, Debounce: 30 * time.Millisecond})
	cl.init(root)
	a := filepath.Join(root, "a.md")
	cl.send("textDocument/didOpen", didOpenParams{TextDocument: textDocumentItem{URI: uriOf(a), LanguageID: "markdown", Version: 1, Text: fixture["a.md"]}}, false)
	edited := strings.Replace(fixture["a.md"], "More.", "More in [gone](gone.md).", 1)
	cl.send("textDocument/didChange", map[string]any{"textDocument": map[string]any{"uri": uriOf(a), "version": 2},
		"contentChanges": []map[string]any{{"text": edited}}}, false)
	cl.request("textDocument/hover", cl.at(a, 11, 7)) // before the pause ends
	deadline := time.Now().Add(10 * time.Second)
	for !strings.Contains(strings.Join(cl.codes(a), " "), lint.LinkBroken.Code) {
		if time.Now().After(deadline) {
			t.Fatalf("no diagnostics published for the edit: %v", cl.codes(a))
		}
		cl.sync()
		time.Sleep(20 * time.Millisecond)
	}
}

// TestHoverEscapes: a concept's own text in a hover is text, never markup: a status written as a
// code span and a link stays inside a longer code span, a title's HTML entity stays an entity.
func TestHoverEscapes(t *testing.T) {
	files := fixtureWith(nil)
	files["b.md"] = strings.Replace(strings.Replace(fixture["b.md"], "status: draft", "status: \"`x` [click](https://evil.example)\"", 1),
		"title: Beta", "title: \"Beta &#x202e; *bold*\"", 1)
	root := writeBundle(t, files)
	cl := newClient(t, Options{Now: fixed})
	cl.init(root)
	a := filepath.Join(root, "a.md")
	cl.open(a, fixture["a.md"])
	res, _ := cl.request("textDocument/hover", cl.at(a, 11, 7))
	var h hover
	json.Unmarshal(res, &h)
	for _, want := range []string{"`` `x` [click](https://evil.example) ``", `&amp;\#x202e;`, `\*bold\*`} {
		if !strings.Contains(h.Contents.Value, want) {
			t.Errorf("hover %q lacks %q", h.Contents.Value, want)
		}
	}
	res, _ = cl.request("textDocument/hover", cl.at(a, 1, 7)) // on "type: Note": nothing to say
	if string(res) != "null" {
		t.Errorf("hover on a plain key: %s", res)
	}
}

// TestCompletionFiltersBeforeCap: in a bundle of more concepts than a list holds, what is typed
// chooses the targets offered, so any concept can be completed; a list that was cut says so.
func TestCompletionFiltersBeforeCap(t *testing.T) {
	files := map[string]string{"index.md": "# All\n"}
	for i := 0; i < 600; i++ {
		files[fmt.Sprintf("n%03d.md", i)] = fmt.Sprintf("---\ntype: Note\ntitle: Note %d\n---\n# N\n", i)
	}
	root := writeBundle(t, files)
	cl := newClient(t, Options{Now: fixed})
	cl.init(root)
	a := filepath.Join(root, "n000.md")
	text := files["n000.md"] + "See [x](n59\n"
	cl.open(a, text)
	res, _ := cl.request("textDocument/completion", cl.at(a, 5, len("See [x](n59")))
	var list completionList
	json.Unmarshal(res, &list)
	if list.IsIncomplete || len(list.Items) != 10 || list.Items[9].Label != "n599.md" {
		t.Errorf("completing n59: incomplete %v, %d items, %v", list.IsIncomplete, len(list.Items), list.Items)
	}
	cl.change(a, files["n000.md"]+"See [x](\n", 2)
	res, _ = cl.request("textDocument/completion", cl.at(a, 5, len("See [x](")))
	json.Unmarshal(res, &list)
	if !list.IsIncomplete || len(list.Items) != maxCompletions {
		t.Errorf("completing nothing yet: incomplete %v, %d items", list.IsIncomplete, len(list.Items))
	}
}

// TestBufferOverSizeLimit: an open document larger than the bundle's size limit is not read, as
// okf lint reads no such file: its one finding is OKF010, and no other concept sees its text.
func TestBufferOverSizeLimit(t *testing.T) {
	root := writeBundle(t, fixtureWith(map[string]string{".okf.yaml": "max_file_size: 1KiB\n"}))
	cl := newClient(t, Options{Now: fixed})
	cl.init(root)
	a := filepath.Join(root, "a.md")
	cl.open(a, strings.Replace(fixture["a.md"], "title: Alpha", "title: Beta", 1)+strings.Repeat("x", 2048)+"\n")
	if got := strings.Join(cl.codes(a), " "); got != "OKF010" {
		t.Errorf("a.md over the limit: %q, want OKF010 alone", got)
	}
	b := filepath.Join(root, "b.md")
	cl.open(b, fixture["b.md"])
	if got := strings.Join(cl.codes(b), " "); strings.Contains(got, lint.TitleDuplicate.Code) {
		t.Errorf("b.md sees the text over the limit: %q", got)
	}
	cl.change(a, fixture["a.md"], 2)
	if got := cl.codes(a); len(got) != 0 {
		t.Errorf("a.md back under the limit: %v", got)
	}
}

// TestBrokenConfigShownOnce: a .okf.yaml with problems stops the bundle's checks, as every command
// stops (exit 2); the editor is told once, with one problem per line, not on every keystroke.
func TestBrokenConfigShownOnce(t *testing.T) {
	root := writeBundle(t, fixtureWith(map[string]string{".okf.yaml": "rulez: {}\nignores: []\n"}))
	cl := newClient(t, Options{Now: fixed})
	cl.init(root)
	a := filepath.Join(root, "a.md")
	cl.open(a, fixture["a.md"])
	for i := 2; i < 7; i++ {
		cl.change(a, fixture["a.md"]+strings.Repeat("\n", i), i)
	}
	cl.request("textDocument/hover", cl.at(a, 11, 7))
	n := 0
	for _, m := range cl.notes {
		if m == "window/showMessage" {
			n++
		}
	}
	if n != 1 {
		t.Errorf("window/showMessage sent %d times, want once", n)
	}
}

// TestPublishOnlyWhatChanged: a keystroke in one file publishes that file, and another open file
// only when its findings changed: a bundle with many open documents costs a keystroke the
// documents it changes.
func TestPublishOnlyWhatChanged(t *testing.T) {
	root := writeBundle(t, fixture)
	cl := newClient(t, Options{Now: fixed})
	cl.init(root)
	a, b := filepath.Join(root, "a.md"), filepath.Join(root, "b.md")
	cl.open(a, fixture["a.md"])
	cl.open(b, fixture["b.md"])
	count := func() (na, nb int) {
		for _, m := range cl.published {
			switch m {
			case uriOf(a):
				na++
			case uriOf(b):
				nb++
			}
		}
		return
	}
	a0, b0 := count()
	cl.change(a, fixture["a.md"]+"\nMore prose.\n", 2) // nothing changes for b.md
	a1, b1 := count()
	if a1 != a0+1 || b1 != b0 {
		t.Errorf("a keystroke in a.md published a.md %d and b.md %d times, want 1 and 0", a1-a0, b1-b0)
	}
	cl.change(a, strings.Replace(fixture["a.md"], "title: Alpha", "title: Beta", 1), 3) // b.md gains a finding
	_, b2 := count()
	if b2 != b1+1 {
		t.Errorf("b.md's new cross-file finding published %d times, want 1", b2-b1)
	}
}
