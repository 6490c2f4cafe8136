package serve

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// ServeStdio serves one session over in and out (the process's stdin and stdout) until the client
// closes it or ctx is done. A message longer than 1 MiB is refused, as over HTTP.
//
// The end of in does not cut off the requests still being answered: a client that writes its
// requests and closes its end of the pipe (`printf '…' | okf serve`, a script, a test harness) gets
// every response. The SDK's stdio transport ends the session at the end of its input and drops the
// answers not yet written, so the end of in is held back here until every request read has been
// answered or cancelled by the client, ctx is done, or two minutes pass without an answer.
//
// A line that is not JSON, or is longer than 1 MiB, does not end the session either (the transport
// would): it is answered with JSON-RPC's parse error or invalid request, naming the line and, for
// bad JSON, the column, and warn is told the same; the next lines are served.
func (s *Server) ServeStdio(ctx context.Context, in io.Reader, out io.Writer, warn func(string)) error {
	t := newInflight()
	w := &answerWriter{w: out, t: t}
	r := &drainingReader{r: in, t: t, ctx: ctx, w: w, warn: warn}
	rt := &eraRouter{s: s, ctx: ctx, w: w, ended: make(chan error, 2)}
	return rt.run(r)
}

// eraRouter serves one stdio pipe as two SDK sessions, one per protocol era, and hands each line
// to the session of its era. A client may probe with the 2026-07-28 server/discover and, having
// had no answer in time (the Vercel AI SDK waits 1 s, mcp-go 5 s; a large bundle takes longer to
// load), fall back to initialize on the same pipe: the SDK's one session takes the probe's _meta
// for the session's handshake and then refuses the initialize as a duplicate, and it would count
// the session as a 2026-07-28 one, sending it no list-change notifications. Each era's session
// keeps its own state: the legacy one its handshake, the 2026-07-28 one its per-request _meta.
//
// A line is for the 2026-07-28 session when it is a request whose params._meta names a protocol
// version of 2026-07-28 or later (the SDK's own test, validateRequestMeta); every other line
// (initialize and what follows it, the client's responses, a batch) is for the legacy session,
// except notifications/cancelled, which both get (each ignores an id it does not know). A
// session is started by the first line for it, so a client of one era sees nothing of the other.
type eraRouter struct {
	s    *Server
	ctx  context.Context
	w    *answerWriter
	mu   sync.Mutex
	eras [2]*eraSession // legacy, modern
	// initialized is set once an initialize has been handed to the legacy session.
	initialized bool
	ended       chan error // a session ended (its error, nil at the end of its input)
	n           int        // sessions started
}

type eraSession struct {
	pw *io.PipeWriter
	ss *mcp.ServerSession
}

const (
	eraLegacy = iota
	eraModern
)

// run routes the lines of r until its end, then lets the sessions finish.
func (rt *eraRouter) run(r io.Reader) error {
	br := bufio.NewReaderSize(r, 64<<10)
	var err error
	for err == nil {
		var line []byte
		line, err = br.ReadBytes('\n')
		if len(line) == 0 {
			continue
		}
		if werr := rt.route(line); werr != nil {
			err = werr
		}
	}
	if err == io.EOF {
		err = nil
	}
	// The end of the input (held back until every request was answered): each session reads its end.
	rt.mu.Lock()
	for _, e := range rt.eras {
		if e != nil {
			e.pw.Close()
		}
	}
	n := rt.n
	rt.mu.Unlock()
	for range n {
		select {
		case serr := <-rt.ended:
			if err == nil {
				err = serr
			}
		case <-rt.ctx.Done():
			rt.closeAll()
			return rt.ctx.Err()
		}
	}
	if err == nil && rt.ctx.Err() != nil {
		return rt.ctx.Err()
	}
	return err
}

func (rt *eraRouter) closeAll() {
	rt.mu.Lock()
	defer rt.mu.Unlock()
	for _, e := range rt.eras {
		if e != nil {
			e.ss.Close()
		}
	}
}

// route writes line to the session(s) of its era, starting them as needed.
func (rt *eraRouter) route(line []byte) error {
	var targets []int
	switch era, kind := eraOf(line); kind {
	case lineForAny, lineForBoth:
		// A cancellation goes to both sessions, a response to the one there is: neither starts a
		// session of an era the client has not spoken.
		rt.mu.Lock()
		switch {
		case rt.eras[eraLegacy] != nil && rt.eras[eraModern] != nil && kind == lineForBoth:
			targets = []int{eraLegacy, eraModern}
		case rt.eras[eraLegacy] == nil && rt.eras[eraModern] != nil:
			targets = []int{eraModern}
		default:
			targets = []int{eraLegacy}
		}
		rt.mu.Unlock()
	default:
		if era == eraLegacy {
			if id, msg := rt.beforeInitialize(line); msg != "" {
				rt.w.Write(append(errorLine(id, jsonrpc.CodeInvalidRequest, msg), '\n'))
				return nil
			}
		}
		targets = []int{era}
	}
	for _, era := range targets {
		e, err := rt.session(era)
		if err != nil {
			return err
		}
		if _, err := e.pw.Write(line); err != nil {
			// The session ended; run learns why from ended.
			continue
		}
	}
	return nil
}

// beforeInitialize notes an initialize, and says why a request of the handshake era that comes
// before any is refused (with its id), or "" when it is not: the SDK refuses it too, but with
// error code 0.
func (rt *eraRouter) beforeInitialize(line []byte) (json.RawMessage, string) {
	b := bytes.TrimSpace(line)
	if len(b) == 0 || b[0] != '{' {
		return nil, ""
	}
	var m struct {
		ID     json.RawMessage `json:"id"`
		Method string          `json:"method"`
	}
	if json.Unmarshal(b, &m) != nil || len(m.ID) == 0 || m.Method == "" {
		return nil, ""
	}
	switch m.Method {
	case "initialize":
		rt.initialized = true
		return nil, ""
	case "ping", "server/discover", "logging/setLevel", "resources/subscribe", "resources/unsubscribe":
		// Answered before initialize by the SDK (or refused by gate in the protocol's words).
		return nil, ""
	}
	if rt.initialized {
		return nil, ""
	}
	return m.ID, fmt.Sprintf("invalid request: %s before initialize: a session starts with initialize, or speaks 2026-07-28 with the protocol version in each request's _meta", quote(m.Method, maxMethod))
}

// session returns the session of era, starting it on first use.
func (rt *eraRouter) session(era int) (*eraSession, error) {
	rt.mu.Lock()
	defer rt.mu.Unlock()
	if e := rt.eras[era]; e != nil {
		return e, nil
	}
	pr, pw := io.Pipe()
	ss, err := rt.s.mcp.Connect(rt.ctx, &mcp.IOTransport{Reader: pr, Writer: nopWriteCloser{rt.w}, MaxLineLength: maxLine + 1}, nil)
	if err != nil {
		return nil, err
	}
	e := &eraSession{pw: pw, ss: ss}
	rt.eras[era] = e
	rt.n++
	go func() {
		err := ss.Wait()
		// Lines still routed to it fail instead of waiting for a reader.
		pr.CloseWithError(io.ErrClosedPipe)
		rt.ended <- err
	}()
	return e, nil
}

// How a line is routed: to the session of its era, to both sessions there are (a cancellation),
// or to whichever there is (a response to the server).
const (
	lineForEra = iota
	lineForBoth
	lineForAny
)

// eraOf says which era's session a line is for, and how it is routed.
func eraOf(line []byte) (era int, kind int) {
	b := bytes.TrimSpace(line)
	if len(b) == 0 || b[0] != '{' {
		return eraLegacy, lineForEra
	}
	var m struct {
		ID     json.RawMessage `json:"id"`
		Method string          `json:"method"`
		Params struct {
			Meta map[string]json.RawMessage `json:"_meta"`
		} `json:"params"`
	}
	switch {
	case json.Unmarshal(b, &m) != nil:
		return eraLegacy, lineForEra
	case m.Method == "notifications/cancelled":
		return eraLegacy, lineForBoth
	case m.Method == "":
		return eraLegacy, lineForAny
	case len(m.ID) == 0:
		return eraLegacy, lineForEra
	}
	var v string
	if json.Unmarshal(m.Params.Meta[mcp.MetaKeyProtocolVersion], &v) == nil && v >= "2026-07-28" {
		return eraModern, lineForEra
	}
	return eraLegacy, lineForEra
}

type nopWriteCloser struct{ io.Writer }

func (nopWriteCloser) Close() error { return nil }

// inflight is the set of requests read and not yet answered, keyed by their JSON-RPC id in a
// canonical encoding.
type inflight struct {
	mu      sync.Mutex
	pending map[string]bool
	gone    bool          // the output failed: nothing more can be answered
	changed chan struct{} // closed and replaced at every change
}

func newInflight() *inflight {
	return &inflight{pending: map[string]bool{}, changed: make(chan struct{})}
}

func (t *inflight) update(f func()) {
	t.mu.Lock()
	f()
	close(t.changed)
	t.changed = make(chan struct{})
	t.mu.Unlock()
}

// drainIdle bounds the wait at the end of the input: if no answer comes for this long, the
// requests left are given up. Every well-formed request is answered (notJSONRPC keeps the others
// from the transport), so this only guards against one that never is.
var drainIdle = 2 * time.Minute

// wait returns when no request is pending, the output failed, ctx is done, or no answer came for
// drainIdle.
func (t *inflight) wait(ctx context.Context) {
	idle := time.NewTimer(drainIdle)
	defer idle.Stop()
	for {
		t.mu.Lock()
		done, changed := len(t.pending) == 0 || t.gone, t.changed
		t.mu.Unlock()
		if done {
			return
		}
		select {
		case <-changed:
			idle.Reset(drainIdle)
		case <-ctx.Done():
			return
		case <-idle.C:
			return
		}
	}
}

// message is what the tracking reads of a JSON-RPC message.
type message struct {
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
	Result present         `json:"result"`
	Error  present         `json:"error"`
	Params struct {
		RequestID       json.RawMessage `json:"requestId"`
		ProtocolVersion string          `json:"protocolVersion"`
	} `json:"params"`
}

// present records that a member was written (even as null) without keeping its value: a result
// may be megabytes.
type present bool

func (p *present) UnmarshalJSON([]byte) error { *p = true; return nil }

// messages decodes one line: a message or a batch of them. A line that is not JSON-RPC yields
// nothing (the server answers it with a parse error, which has no id to track).
func messages(line []byte) []message {
	line = bytes.TrimSpace(line)
	if len(line) > 0 && line[0] == '[' {
		var batch []message
		if json.Unmarshal(line, &batch) != nil {
			return nil
		}
		return batch
	}
	var m message
	if json.Unmarshal(line, &m) != nil {
		return nil
	}
	return []message{m}
}

// idKey is an id's canonical encoding, as the server writes it back: a string quoted, a number as
// the integer the transport reads it as (it converts through float64 to int64: 2.0 is 2). It is ""
// for no id, a null one, or one the transport cannot answer under the same id (a fraction, a
// number past int64), which notJSONRPC refuses before the transport sees it.
func idKey(raw json.RawMessage) string {
	if len(raw) == 0 {
		return ""
	}
	var v any
	if json.Unmarshal(raw, &v) != nil {
		return ""
	}
	switch v := v.(type) {
	case string:
		b, _ := json.Marshal(v)
		return string(b)
	case float64:
		if v != math.Trunc(v) || v < math.MinInt64 || v >= math.MaxInt64 {
			return ""
		}
		return strconv.FormatInt(int64(v), 10)
	}
	return ""
}

// lines splits what arrives in pieces into lines. Bound: a line past maxLine is not kept, only
// reported as too long once it ends, so the buffer never holds more than maxLine bytes.
type lines struct {
	buf  []byte
	skip bool // inside a line that is too long
}

const maxLine = 1 << 20

// maxBatch is the most messages a JSON-RPC batch may hold (where the session's version has batches):
// the SDK answers a batch as one array, so its answers are held together, up to maxAnswerBytes
// each.
const maxBatch = 16

// feed calls each for every line that ends in p, with tooLong set (and no text) for a line longer
// than maxLine.
func (l *lines) feed(p []byte, each func(line []byte, tooLong bool)) {
	for len(p) > 0 {
		i := bytes.IndexByte(p, '\n')
		if i < 0 {
			if !l.skip {
				if len(l.buf)+len(p) > maxLine {
					l.buf, l.skip = l.buf[:0], true
				} else {
					l.buf = append(l.buf, p...)
				}
			}
			return
		}
		if l.skip || len(l.buf)+i > maxLine {
			each(nil, true)
		} else {
			l.buf = append(l.buf, p[:i]...)
			each(l.buf, false)
		}
		l.buf, l.skip = l.buf[:0], false
		p = p[i+1:]
	}
}

// end calls each for a last line that has no newline.
func (l *lines) end(each func(line []byte, tooLong bool)) {
	switch {
	case l.skip:
		each(nil, true)
	case len(l.buf) > 0:
		each(l.buf, false)
	}
	l.buf, l.skip = l.buf[:0], false
}

// drainingReader reads the client's messages, hands the transport each line that is JSON, answers
// the others itself, records the requests, and at the end of its input waits for their answers
// before reporting the end.
type drainingReader struct {
	r     io.Reader
	t     *inflight
	ctx   context.Context
	w     *answerWriter
	warn  func(string)
	lines lines
	n     int // lines read
	// batches is true once the client's initialize asked for a protocol version that has JSON-RPC
	// batches (before 2025-06-18).
	batches bool
	ready   bytes.Buffer
	chunk   [64 << 10]byte
	eof     bool
}

func (d *drainingReader) Read(p []byte) (int, error) {
	for d.ready.Len() == 0 {
		if d.eof {
			d.t.wait(d.ctx)
			return 0, io.EOF
		}
		n, err := d.r.Read(d.chunk[:])
		d.lines.feed(d.chunk[:n], d.line)
		if err == io.EOF {
			d.lines.end(d.line)
			d.eof = true
		} else if err != nil {
			return 0, err
		}
	}
	return d.ready.Read(p)
}

// line passes one line on to the transport, or answers it.
func (d *drainingReader) line(line []byte, tooLong bool) {
	d.n++
	switch {
	case tooLong:
		d.refuse(-32600, fmt.Sprintf("line %d is longer than %d bytes: not read", d.n, maxLine))
	case len(bytes.TrimSpace(line)) == 0:
	case !json.Valid(line):
		var v any
		err := json.Unmarshal(line, &v)
		// The column of the byte that broke the syntax (Offset is just past it), or, for a line that
		// ends too soon, the column just past its end.
		col := utf8.RuneCount(line) + 1
		var se *json.SyntaxError
		if errors.As(err, &se) && se.Offset >= 1 && se.Offset <= int64(len(line)) && se.Error() != "unexpected end of JSON input" {
			col = utf8.RuneCount(line[:se.Offset-1]) + 1
		}
		msg := "not JSON"
		if err != nil {
			msg = err.Error()
		}
		d.refuse(-32700, fmt.Sprintf("line %d, column %d: %s", d.n, col, msg))
	default:
		if why := notJSONRPC(line); why != "" {
			d.refuse(-32600, fmt.Sprintf("line %d: not a JSON-RPC 2.0 message: %s", d.n, why))
			return
		}
		if bytes.TrimSpace(line)[0] == '[' && !d.batches {
			// The transport ends the session on a batch once it has negotiated 2025-06-18 or later,
			// which removed batching; it may not have yet when the batch is read, so the client's
			// initialize decides.
			d.refuse(-32600, fmt.Sprintf("line %d: JSON-RPC batches are not part of MCP from 2025-06-18 on; send one message a line", d.n))
			return
		}
		if bytes.TrimSpace(line)[0] == '[' {
			var batch []json.RawMessage
			if json.Unmarshal(line, &batch) == nil && len(batch) > maxBatch {
				d.refuse(-32600, fmt.Sprintf("line %d: a batch of %d messages; at most %d a batch", d.n, len(batch), maxBatch))
				return
			}
		}
		if bytes.TrimSpace(line)[0] == '{' {
			if code, msg, id := requestProblem(line); code != 0 {
				d.answer(id, code, fmt.Sprintf("line %d: %s", d.n, msg))
				return
			}
		}
		if id := d.record(line); id != "" {
			d.refuse(-32600, fmt.Sprintf("line %d: id %s is already used by a request not yet answered", d.n, id))
			return
		}
		d.ready.Write(line)
		d.ready.WriteByte('\n')
	}
}

// notJSONRPC says why a line of JSON is not a JSON-RPC 2.0 message or batch the transport can
// take, or "" when it is: the transport ends the session on one it cannot decode. Each message is
// decoded as the transport decodes it (jsonrpc.DecodeMessage), and an id it would answer under
// another id (a fraction, a number past int64) is refused too.
func notJSONRPC(line []byte) string {
	line = bytes.TrimSpace(line)
	if line[0] != '[' {
		return notMessage(line)
	}
	var batch []json.RawMessage
	if json.Unmarshal(line, &batch) != nil {
		return "not a batch"
	}
	if len(batch) == 0 {
		return "an empty batch"
	}
	for i, m := range batch {
		if why := notMessage(m); why != "" {
			return fmt.Sprintf("batch item %d: %s", i+1, why)
		}
	}
	return ""
}

// notMessage words the usual mistakes itself and leaves the rest to the transport's decoder.
func notMessage(raw []byte) string {
	var m map[string]json.RawMessage
	if json.Unmarshal(raw, &m) != nil || m == nil {
		return "not an object"
	}
	if v, ok := m["jsonrpc"]; !ok || string(bytes.TrimSpace(v)) != `"2.0"` {
		return `"jsonrpc" is not "2.0"`
	}
	method, isRequest := m["method"]
	if isRequest {
		var s string
		if json.Unmarshal(method, &s) != nil {
			return `"method" is not a string`
		}
		if len(s) > maxMethod {
			return fmt.Sprintf(`"method" is %d bytes long: no MCP method is longer than %d`, len(s), maxMethod)
		}
	}
	id, hasID := m["id"]
	if hasID && string(bytes.TrimSpace(id)) != "null" && idKey(id) == "" {
		return `"id" is not a string, an integer or null`
	}
	if isRequest && hasID && string(bytes.TrimSpace(id)) == "null" {
		// MCP: a request's id MUST NOT be null. The SDK takes it for a notification and answers
		// nothing, so the client would wait for ever.
		return `"id" is null: a request's id is a string or an integer (a notification has no "id")`
	}
	if !isRequest && (!hasID || string(bytes.TrimSpace(id)) == "null") {
		return `neither a request (no "method") nor a response (no "id")`
	}
	if why := ambiguousKeys(raw); why != "" {
		return why
	}
	if _, err := jsonrpc.DecodeMessage(raw); err != nil {
		return err.Error()
	}
	return ""
}

// refuse answers a line the transport is not given: JSON-RPC's error with a null id, since the
// line's id cannot be read.
func (d *drainingReader) refuse(code int, msg string) {
	type rpcError struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	}
	b, _ := json.Marshal(struct {
		JSONRPC string   `json:"jsonrpc"`
		ID      any      `json:"id"`
		Error   rpcError `json:"error"`
	}{"2.0", nil, rpcError{code, msg}})
	d.w.Write(append(b, '\n'))
	if d.warn != nil {
		d.warn("standard input, " + msg + "; answered with an error, serving on")
	}
}

// answer answers a request the transport is not given, under its id.
func (d *drainingReader) answer(id json.RawMessage, code int, msg string) {
	d.w.Write(append(errorLine(id, code, msg), '\n'))
	if d.warn != nil {
		d.warn("standard input, " + msg + "; answered with an error, serving on")
	}
}

// record notes the requests of a line as pending and the cancellations in it as done. A request
// whose id a pending one already holds is not recorded, nor is any of its line: the transport
// answers only one request per id at a time, so the line is refused instead, and record returns
// that id.
func (d *drainingReader) record(line []byte) (dup string) {
	ms := messages(line)
	if len(ms) == 0 {
		return ""
	}
	d.t.update(func() {
		seen := map[string]bool{}
		for _, m := range ms {
			if k := idKey(m.ID); m.Method != "" && k != "" {
				if d.t.pending[k] || seen[k] {
					dup = k
					return
				}
				seen[k] = true
			}
		}
		for _, m := range ms {
			if m.Method == "initialize" {
				v := m.Params.ProtocolVersion
				d.batches = v == "2024-11-05" || v == "2025-03-26"
			}
			switch {
			case m.Method == "notifications/cancelled":
				// The server does not answer a cancelled request.
				delete(d.t.pending, idKey(m.Params.RequestID))
			case m.Method != "":
				if k := idKey(m.ID); k != "" {
					d.t.pending[k] = true
				}
			}
		}
	})
	return dup
}

// answerWriter writes the server's messages and marks the requests they answer. The transport
// writes each message whole, newline included, in one call, and so does drainingReader.refuse; the
// lock keeps them from interleaving. The server's own lines are not bounded like the client's: a
// response may be larger than any request.
type answerWriter struct {
	mu    sync.Mutex
	w     io.Writer
	t     *inflight
	carry []byte // a line not yet ended (never, from the transport)
}

func (a *answerWriter) Write(p []byte) (int, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	n, err := a.w.Write(p)
	if err != nil {
		a.t.update(func() { a.t.gone = true })
		return n, err
	}
	data := p[:n]
	if len(a.carry) > 0 {
		data = append(a.carry, data...)
		a.carry = nil
	}
	for {
		i := bytes.IndexByte(data, '\n')
		if i < 0 {
			a.carry = append(a.carry, data...)
			return n, nil
		}
		if ms := messages(data[:i]); len(ms) > 0 {
			a.t.update(func() {
				for _, m := range ms {
					if m.Method == "" && (m.Result || m.Error) {
						delete(a.t.pending, idKey(m.ID))
					}
				}
			})
		}
		data = data[i+1:]
	}
}
