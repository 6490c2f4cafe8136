// Package lsp is okf's language server (okf lsp): the Language Server Protocol over a stream, with
// a bundle's findings as the user types, hover with a concept's trust, definitions, references,
// completion, the safe fixes as code actions, and symbols. It reads a bundle through the same
// confined door and limits as the command line, keeps it loaded and re-checks the one file that
// changed (okf.Bundle.WithFile, lint.Session); it never writes a file (fixes are edits the editor
// applies) and never runs bundle code.
package lsp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/url"
	"path/filepath"
	"runtime"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/okf-tools/okf/internal/escape"
	"github.com/okf-tools/okf/lint"
	"github.com/okf-tools/okf/okf"
)

// Options configure a server.
type Options struct {
	// Now is the clock for staleness and "how long ago" (D11); nil is time.Now.
	Now func() time.Time
	// Debounce is how long after the last change the server waits before checking (0: at once,
	// as tests want; okf lsp uses DefaultDebounce).
	Debounce time.Duration
	// MaxFileSize is --max-file-size (0: the bundle's configuration, else the default).
	MaxFileSize int64
	// Version is okf's, for serverInfo.
	Version string
	// Log receives one line per problem the server meets outside the protocol (nil: discarded).
	Log io.Writer
}

// DefaultDebounce is the pause after a keystroke before okf lsp checks the file again.
const DefaultDebounce = 150 * time.Millisecond

// RulesDocURL is where a finding's code links to: its section of the rule reference.
const RulesDocURL = "https://github.com/okf-tools/okf/blob/main/docs/rules.md#"

// Serve runs the server on in and out until the client sends exit, in closes, or ctx ends. It
// returns nil after a shutdown request and exit, an error otherwise (the process exits 1, as the
// protocol asks when exit comes without shutdown).
func Serve(ctx context.Context, in io.Reader, out io.Writer, opts Options) error {
	if opts.Now == nil {
		opts.Now = time.Now
	}
	s := &server{conn: newConn(in, out), opts: opts, docs: map[string]*openDoc{}, bundles: map[string]*bundleState{}, enc: "utf-16"}
	return s.run(ctx)
}

type server struct {
	conn *conn
	opts Options

	initialized bool
	shutdown    bool
	watch       bool   // the client registers file watchers for us (didChangeWatchedFiles)
	enc         string // the position encoding agreed at initialize

	docs    map[string]*openDoc     // by absolute path
	bundles map[string]*bundleState // by root folder ("" key: never)
	timer   *time.Timer
	due     chan struct{}
}

// openDoc is a document the editor has open: its text as the editor holds it.
type openDoc struct {
	uri     string
	path    string // absolute, cleaned
	version int
	text    *doc
	bundle  *bundleState

	// What was last published for it: a check that changes nothing for this document (a keystroke
	// in another file of the bundle) sends nothing, so a keystroke costs the open documents it
	// changes, not all of them.
	sent         bool
	sentText     *doc
	sentVersion  int
	sentFindings []okf.Diagnostic
}

type incoming struct {
	data []byte
	err  error
}

func (s *server) run(ctx context.Context) error {
	msgs := make(chan incoming)
	go func() {
		for {
			data, err := s.conn.read()
			select {
			case msgs <- incoming{data, err}:
			case <-ctx.Done():
				return
			}
			if err != nil {
				return
			}
		}
	}()
	s.due = make(chan struct{}, 1)
	for {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-s.due:
			s.checkPending()
		case in := <-msgs:
			if in.err != nil {
				if errors.Is(in.err, io.EOF) {
					return errors.New("the client closed the connection without exit")
				}
				s.logf("%v", in.err)
				return in.err
			}
			var m message
			if err := json.Unmarshal(in.data, &m); err != nil {
				_ = s.conn.replyError(nil, codeParseError, "the message is not JSON")
				continue
			}
			if m.Method == "exit" {
				if s.shutdown {
					return nil
				}
				return errors.New("exit without shutdown")
			}
			s.handle(&m)
		}
	}
}

// showError tells the user, in the editor, why a bundle could not be opened (a .okf.yaml with
// problems, each at its line and column).
func (s *server) showError(err error) {
	lines := strings.Split(err.Error(), "\n")
	for i, l := range lines {
		lines[i] = escape.Control(l) // line breaks kept: one problem per line, as on the terminal
	}
	_ = s.conn.notify("window/showMessage", map[string]any{"type": 1, "message": "okf: " + strings.Join(lines, "\n")})
}

func (s *server) logf(format string, args ...any) {
	if s.opts.Log != nil {
		fmt.Fprintf(s.opts.Log, "okf lsp: "+format+"\n", args...)
	}
}

// handle answers one message. A request's handler returns its result or an *rpcError; a
// notification's result is dropped.
func (s *server) handle(m *message) {
	isRequest := len(m.ID) > 0 && string(m.ID) != "null"
	if m.Method == "" {
		return // a response to a request of ours (client/registerCapability): nothing to do
	}
	if string(m.ID) == "null" {
		_ = s.conn.replyError(nil, codeInvalidRequest, "a request id may not be null")
		return
	}
	if !s.initialized && m.Method != "initialize" {
		if isRequest {
			_ = s.conn.replyError(m.ID, codeNotInitialized, "the server is not initialized yet")
		}
		return
	}
	if s.shutdown && isRequest {
		_ = s.conn.replyError(m.ID, codeInvalidRequest, "the server is shutting down")
		return
	}
	h, ok := handlers()[m.Method]
	if !ok {
		if isRequest {
			_ = s.conn.replyError(m.ID, codeMethodNotFound, fmt.Sprintf("okf lsp does not answer %q", m.Method))
		}
		return
	}
	result, err := s.call(h, m.Params)
	if !isRequest {
		if err != nil {
			s.logf("%s: %s", m.Method, err.Message)
		}
		return
	}
	if err != nil {
		_ = s.conn.replyError(m.ID, err.Code, err.Message)
		return
	}
	_ = s.conn.reply(m.ID, result)
}

// call runs a handler, turning a panic (a bug in okf) into an internal error rather than ending
// the editor's session.
func (s *server) call(h handler, params raw) (result any, rerr *rpcError) {
	defer func() {
		if p := recover(); p != nil {
			buf := make([]byte, 4096)
			buf = buf[:runtime.Stack(buf, false)]
			s.logf("internal error: %v\n%s", p, buf)
			result, rerr = nil, &rpcError{Code: codeInternalError, Message: fmt.Sprintf("internal error in okf: %v", p)}
		}
	}()
	return h(s, params)
}

type handler func(s *server, params raw) (any, *rpcError)

// handlers are the methods okf lsp answers; any other request is method-not-found. Built on first
// use, not at init (every okf process would pay for it).
var handlers = sync.OnceValue(func() map[string]handler {
	return map[string]handler{
		"initialize":                      (*server).initialize,
		"initialized":                     (*server).initializedNote,
		"shutdown":                        (*server).shutdownRequest,
		"textDocument/didOpen":            (*server).didOpen,
		"textDocument/didChange":          (*server).didChange,
		"textDocument/didSave":            (*server).didSave,
		"textDocument/didClose":           (*server).didClose,
		"workspace/didChangeWatchedFiles": (*server).didChangeWatchedFiles,
		"textDocument/hover":              (*server).hover,
		"textDocument/definition":         (*server).definition,
		"textDocument/references":         (*server).references,
		"textDocument/completion":         (*server).completion,
		"textDocument/codeAction":         (*server).codeAction,
		"textDocument/documentSymbol":     (*server).documentSymbol,
		"workspace/symbol":                (*server).workspaceSymbol,
		"$/cancelRequest":                 func(*server, raw) (any, *rpcError) { return nil, nil },
		"$/setTrace":                      func(*server, raw) (any, *rpcError) { return nil, nil },
	}
})

func decode(params raw, v any) *rpcError {
	if len(params) == 0 {
		return &rpcError{Code: codeInvalidParams, Message: "the request has no params"}
	}
	if err := json.Unmarshal(params, v); err != nil {
		return &rpcError{Code: codeInvalidParams, Message: "the params do not have the shape the method takes"}
	}
	return nil
}

func (s *server) initialize(params raw) (any, *rpcError) {
	var p initializeParams
	if err := decode(params, &p); err != nil {
		return nil, err
	}
	for _, e := range p.Capabilities.General.PositionEncodings {
		if e == "utf-32" || e == "utf-8" {
			s.enc = e // okf counts characters; either avoids UTF-16 surrogate arithmetic
			break
		}
	}
	s.initialized = true
	s.watch = p.Capabilities.Workspace.DidChangeWatchedFiles.DynamicRegistration
	return map[string]any{
		"capabilities": map[string]any{
			"positionEncoding":        s.enc,
			"textDocumentSync":        map[string]any{"openClose": true, "change": 1, "save": map[string]any{"includeText": false}},
			"hoverProvider":           true,
			"definitionProvider":      true,
			"referencesProvider":      true,
			"completionProvider":      map[string]any{"triggerCharacters": []string{"(", "/", ":", " ", "[", "^"}},
			"codeActionProvider":      map[string]any{"codeActionKinds": []string{"quickfix", "source.fixAll.okf"}},
			"documentSymbolProvider":  true,
			"workspaceSymbolProvider": true,
		},
		"serverInfo": map[string]any{"name": "okf", "version": s.opts.Version},
	}, nil
}

// initializedNote asks the client to watch the bundle's files, when it can: a file created, deleted
// or changed outside the editor (git checkout, okf gen) is then seen without reopening it.
func (s *server) initializedNote(raw) (any, *rpcError) {
	if !s.watch {
		return nil, nil
	}
	watchers := []map[string]any{{"globPattern": "**/*.md"}, {"globPattern": "**/" + okf.ConfigName}, {"globPattern": "**/.okfignore"}}
	data, _ := json.Marshal(map[string]any{"registrations": []map[string]any{{
		"id": "okf-watch", "method": "workspace/didChangeWatchedFiles", "registerOptions": map[string]any{"watchers": watchers},
	}}})
	_ = s.conn.write(&message{ID: json.RawMessage(`"okf-watch"`), Method: "client/registerCapability", Params: data})
	return nil, nil
}

func (s *server) shutdownRequest(raw) (any, *rpcError) {
	s.shutdown = true
	return nil, nil
}

// pathOf turns a file: URI into a clean absolute path.
func pathOf(uri string) (string, bool) {
	u, err := url.Parse(uri)
	if err != nil || u.Scheme != "file" {
		return "", false
	}
	p := filepath.FromSlash(u.Path)
	if runtime.GOOS == "windows" {
		p = strings.TrimPrefix(p, `\`)
	}
	return filepath.Clean(p), true
}

// uriOf turns an absolute path into a file: URI.
func uriOf(p string) string {
	u := url.URL{Scheme: "file", Path: filepath.ToSlash(p)}
	if runtime.GOOS == "windows" {
		u.Path = "/" + u.Path
	}
	return u.String()
}

func (s *server) didOpen(params raw) (any, *rpcError) {
	var p didOpenParams
	if err := decode(params, &p); err != nil {
		return nil, err
	}
	path, ok := pathOf(p.TextDocument.URI)
	if !ok {
		return nil, nil // not a file: nothing okf can place in a bundle
	}
	d := &openDoc{uri: p.TextDocument.URI, path: path, version: p.TextDocument.Version, text: newDoc(p.TextDocument.Text, s.enc)}
	s.docs[path] = d
	d.bundle = s.bundleFor(path)
	d.bundle.changed(d)
	s.schedule()
	return nil, nil
}

func (s *server) didChange(params raw) (any, *rpcError) {
	var p didChangeParams
	if err := decode(params, &p); err != nil {
		return nil, err
	}
	path, _ := pathOf(p.TextDocument.URI)
	d := s.docs[path]
	if d == nil || len(p.ContentChanges) == 0 {
		return nil, nil
	}
	// Full sync (textDocumentSync.change 1): the last change holds the whole text.
	d.text = newDoc(p.ContentChanges[len(p.ContentChanges)-1].Text, s.enc)
	d.version = p.TextDocument.Version
	d.bundle.changed(d)
	s.schedule()
	return nil, nil
}

func (s *server) didSave(params raw) (any, *rpcError) {
	var p didSaveParams
	if err := decode(params, &p); err != nil {
		return nil, err
	}
	path, _ := pathOf(p.TextDocument.URI)
	if d := s.docs[path]; d != nil {
		d.bundle.changed(d)
		s.schedule()
	}
	return nil, nil
}

func (s *server) didClose(params raw) (any, *rpcError) {
	var p didCloseParams
	if err := decode(params, &p); err != nil {
		return nil, err
	}
	path, _ := pathOf(p.TextDocument.URI)
	d := s.docs[path]
	if d == nil {
		return nil, nil
	}
	delete(s.docs, path)
	d.bundle.closed(d)
	_ = s.conn.notify("textDocument/publishDiagnostics", publishDiagnosticsParams{URI: d.uri, Diagnostics: []lspDiagnostic{}})
	s.schedule()
	return nil, nil
}

func (s *server) didChangeWatchedFiles(params raw) (any, *rpcError) {
	var p didChangeWatchedFilesParams
	if err := decode(params, &p); err != nil {
		return nil, err
	}
	for _, e := range p.Changes {
		path, ok := pathOf(e.URI)
		if !ok {
			continue
		}
		for root, b := range s.bundles {
			if rel, ok := relTo(root, path); ok {
				b.diskChanged(rel)
			}
		}
	}
	s.schedule()
	return nil, nil
}

// schedule asks for a check after the debounce pause (at once with no pause).
func (s *server) schedule() {
	if s.opts.Debounce <= 0 {
		s.checkPending()
		return
	}
	if s.timer != nil {
		s.timer.Stop()
	}
	s.timer = time.AfterFunc(s.opts.Debounce, func() {
		select {
		case s.due <- struct{}{}:
		default:
		}
	})
}

// checkPending checks every bundle with a change and publishes the findings of its open documents.
func (s *server) checkPending() {
	roots := make([]string, 0, len(s.bundles))
	for r := range s.bundles {
		roots = append(roots, r)
	}
	sort.Strings(roots)
	for _, r := range roots {
		b := s.bundles[r]
		if b.pending() {
			b.check(s.now())
		}
		if b.published {
			continue // a request checked it already, and this pause published it
		}
		for _, d := range s.docsOf(b) {
			s.publish(d)
		}
		b.published = true
	}
}

func (s *server) docsOf(b *bundleState) []*openDoc {
	var out []*openDoc
	for _, d := range s.docs {
		if d.bundle == b {
			out = append(out, d)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].path < out[j].path })
	return out
}

// publish sends the document's findings.
func (s *server) publish(d *openDoc) {
	rel, _ := d.bundle.rel(d.path)
	fs := d.bundle.findings[rel]
	if d.sent && d.sentText == d.text && d.sentVersion == d.version && slices.Equal(d.sentFindings, fs) {
		return // the editor shows these already
	}
	d.sent, d.sentText, d.sentVersion, d.sentFindings = true, d.text, d.version, fs
	out := []lspDiagnostic{}
	for _, f := range fs {
		out = append(out, s.toLSP(d, f))
	}
	v := d.version
	_ = s.conn.notify("textDocument/publishDiagnostics", publishDiagnosticsParams{URI: d.uri, Version: &v, Diagnostics: out})
}

func (s *server) toLSP(d *openDoc, f okf.Diagnostic) lspDiagnostic {
	start := d.text.okfOffset(int(f.Pos.Line), int(f.Pos.Col))
	end := d.text.wordEnd(start)
	if f.End.Line > 0 {
		end = d.text.okfOffset(int(f.End.Line), int(f.End.Col))
	}
	if f.Pos.Line == 0 {
		start, end = 0, d.text.wordEnd(0)
	}
	sev := severityInfo
	switch f.Severity {
	case okf.Error:
		sev = severityError
	case okf.Warning:
		sev = severityWarning
	}
	ld := lspDiagnostic{Range: lspRange{d.text.pos(start), d.text.pos(end)}, Severity: sev, Code: f.Code, Source: "okf", Message: escape.Control(f.Message)}
	if r := lint.ByCode(f.Code); r != nil {
		ld.CodeDescription = &codeDescription{Href: RulesDocURL + strings.ToLower(r.Code) + "-" + r.Name}
	}
	return ld
}
