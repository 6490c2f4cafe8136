package serve

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"testing"
	"time"
)

const initLine = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`

// serveLines runs a stdio session over the given input, which ends after it, and returns the ids of
// the responses written, in order of the lines.
func serveLines(t *testing.T, in io.Reader) (ids []string, out string) {
	t.Helper()
	s, _ := newServer(t, "testdata/bundle", 0)
	var buf bytes.Buffer
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	done := make(chan error, 1)
	go func() { done <- s.ServeStdio(ctx, in, &buf, nil) }()
	select {
	case <-done:
	case <-ctx.Done():
		t.Fatal("the session did not end within 20s of its input's end")
	}
	for _, line := range strings.Split(strings.TrimSpace(buf.String()), "\n") {
		var m struct {
			ID json.RawMessage `json:"id"`
		}
		if json.Unmarshal([]byte(line), &m) == nil && len(m.ID) > 0 {
			ids = append(ids, string(m.ID))
		}
	}
	return ids, buf.String()
}

func sameSet(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	seen := map[string]int{}
	for _, x := range a {
		seen[x]++
	}
	for _, x := range b {
		seen[x]--
	}
	for _, n := range seen {
		if n != 0 {
			return false
		}
	}
	return true
}

// TestStdioAnswersEveryRequestBeforeTheEnd: a client that writes its requests and closes its end
// (a pipe from printf, a script) gets an answer to each, the last one included even without a final
// newline; the SDK's transport alone dropped all but the first.
func TestStdioAnswersEveryRequestBeforeTheEnd(t *testing.T) {
	in := strings.Join([]string{
		initLine,
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
		`{"jsonrpc":"2.0","id":2,"method":"tools/list"}`,
		`{"jsonrpc":"2.0","id":"three","method":"tools/call","params":{"name":"search","arguments":{"query":"cache"}}}`,
		`{"jsonrpc":"2.0","id":4,"method":"no/such/method"}`,
		`{"jsonrpc":"2.0","id":5,"method":"resources/list"}`,
	}, "\n") // no newline after the last request
	ids, out := serveLines(t, strings.NewReader(in))
	if want := []string{"1", "2", `"three"`, "4", "5"}; !sameSet(ids, want) {
		t.Fatalf("answered %v, want %v:\n%s", ids, want, out)
	}
}

// TestStdioCancelledRequestDoesNotHoldTheEnd: a request the client cancels is not answered (MCP),
// so the end of the input is not held back waiting for it.
func TestStdioCancelledRequestDoesNotHoldTheEnd(t *testing.T) {
	in := strings.Join([]string{
		initLine,
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
		`{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"search","arguments":{"query":"cache"}}}`,
		`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":7}}`,
	}, "\n") + "\n"
	ids, _ := serveLines(t, strings.NewReader(in)) // fails on its timeout if the end is held
	if len(ids) == 0 || ids[0] != "1" {
		t.Fatalf("answered %v, want the initialize answer first", ids)
	}
}

// TestLinesBound: the line splitter keeps no line past maxLine, reports it as too long once it
// ends, and carries on with the next; a last line without a newline is given by end.
func TestLinesBound(t *testing.T) {
	var l lines
	var got []string
	each := func(line []byte, tooLong bool) {
		if tooLong {
			got = append(got, "<too long>")
			return
		}
		got = append(got, string(line))
	}
	l.feed([]byte("a\nb"), each)
	l.feed(bytes.Repeat([]byte("x"), maxLine), each)
	if len(l.buf) != 0 || !l.skip {
		t.Fatalf("an overlong line is kept: %d bytes, skip %v", len(l.buf), l.skip)
	}
	l.feed([]byte("y\nc\nd"), each)
	l.end(each)
	if strings.Join(got, ",") != "a,<too long>,c,d" {
		t.Fatalf("lines %q", got)
	}
}

// TestStdioBadLinesAreAnsweredNotFatal: a line that is not JSON gets JSON-RPC's parse error naming
// its line and column, a line past 1 MiB an invalid-request error, and the session serves the
// requests after them; the transport alone ended the session at the first.
func TestStdioBadLinesAreAnsweredNotFatal(t *testing.T) {
	in := strings.Join([]string{
		initLine,
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
		`{"jsonrpc":"2.0","id":2,"method":"tools/list"`, // unterminated
		`{bad json}`,
		`{"jsonrpc":"2.0","id":3,"method":"tools/list","x":"` + strings.Repeat("x", maxLine) + `"}`,
		``,
		`{"jsonrpc":"2.0","id":4,"method":"tools/list"}`,
	}, "\n") + "\n"
	s, _ := newServer(t, "testdata/bundle", 0)
	var out bytes.Buffer
	var warned []string
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	if err := s.ServeStdio(ctx, strings.NewReader(in), &out, func(m string) { warned = append(warned, m) }); err != nil {
		t.Fatalf("session ended with %v", err)
	}
	type errorAnswer struct {
		ID    json.RawMessage `json:"id"`
		Error *struct {
			Code    int    `json:"code"`
			Message string `json:"message"`
		} `json:"error"`
	}
	var errs []string
	var answered []string
	for _, line := range strings.Split(strings.TrimSpace(out.String()), "\n") {
		var a errorAnswer
		if err := json.Unmarshal([]byte(line), &a); err != nil {
			t.Fatalf("output line is not JSON: %v", err)
		}
		if a.Error != nil && string(a.ID) == "null" {
			errs = append(errs, fmt.Sprintf("%d %s", a.Error.Code, a.Error.Message))
			continue
		}
		answered = append(answered, string(a.ID))
	}
	want := []string{
		"-32700 line 3, column 46: unexpected end of JSON input",
		"-32700 line 4, column 2: invalid character 'b' looking for beginning of object key string",
		fmt.Sprintf("-32600 line 5 is longer than %d bytes: not read", maxLine),
	}
	if strings.Join(errs, "\n") != strings.Join(want, "\n") {
		t.Errorf("errors\n%s\nwant\n%s", strings.Join(errs, "\n"), strings.Join(want, "\n"))
	}
	if !sameSet(answered, []string{"1", "4"}) {
		t.Errorf("answered %v, want 1 and 4", answered)
	}
	if len(warned) != 3 || !strings.Contains(warned[1], "line 4, column 2") {
		t.Errorf("warnings %q", warned)
	}
}

// TestNotJSONRPC: what the transport could not decode, or would answer under another id, is
// refused before it (the transport's own words where it has them); what it can is passed.
func TestNotJSONRPC(t *testing.T) {
	pass := []string{
		`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`,
		`{"jsonrpc":"2.0","id":"a","method":"x","params":{}}`,
		`{"jsonrpc":"2.0","id":2.0,"method":"x","params":[]}`,
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
		`{"jsonrpc":"2.0","id":3,"result":{}}`,
		`{"jsonrpc":"2.0","id":3,"error":{"code":-1,"message":"no"}}`,
		`[{"jsonrpc":"2.0","id":1,"method":"a"}]`,
	}
	for _, line := range pass {
		if got := notJSONRPC([]byte(line)); got != "" {
			t.Errorf("%s: refused (%s)", line, got)
		}
	}
	refuse := map[string]string{
		`42`:                                    "not an object",
		`null`:                                  "not an object",
		`{}`:                                    `"jsonrpc" is not "2.0"`,
		`{"jsonrpc":"2.0"}`:                     "neither a request",
		`{"jsonrpc":"1.0","id":1,"method":"x"}`: `"jsonrpc" is not "2.0"`,
		`{"jsonrpc":2,"id":1,"method":"x"}`:     `"jsonrpc" is not "2.0"`,
		`{"jsonrpc":"2.0","id":1,"method":7}`:   `"method" is not a string`,
		`{"jsonrpc":"2.0","id":true,"method":"x"}`:                 `"id" is not a string, an integer or null`,
		`{"jsonrpc":"2.0","id":null,"method":"x","params":null}`:   `"id" is null`,
		`{"jsonrpc":"2.0","id":3,"error":"no"}`:                    "",
		`{"jsonrpc":"2.0","id":1e400,"method":"x"}`:                `"id" is not a string, an integer or null`,
		`{"jsonrpc":"2.0","id":1.5,"method":"x"}`:                  `"id" is not a string, an integer or null`,
		`{"jsonrpc":"2.0","id":12345678901234567890,"method":"x"}`: `"id" is not a string, an integer or null`,
		`[]`:  "an empty batch",
		`[1]`: "batch item 1: not an object",
		`[{"jsonrpc":"2.0","id":1,"method":"a"},{"jsonrpc":"2.0","id":1.5,"method":"a"}]`:                                `batch item 2: "id" is not a string, an integer or null`,
		`{"jsonrpc":"2.0","id":1,"method":"x","params":` + strings.Repeat("[", 20000) + strings.Repeat("]", 20000) + `}`: "",
	}
	for line, prefix := range refuse {
		got := notJSONRPC([]byte(line))
		if got == "" || !strings.HasPrefix(got, prefix) {
			t.Errorf("%.80s: %q, want a refusal starting %q", line, got, prefix)
		}
	}
	for raw, want := range map[string]string{`1`: "1", `2.0`: "2", `-3`: "-3", `"1"`: `"1"`, `null`: "", `1.5`: "", `9007199254740993`: "9007199254740992"} {
		if got := idKey(json.RawMessage(raw)); got != want {
			t.Errorf("idKey(%s) = %q, want %q", raw, got, want)
		}
	}
}

// TestDrainGivesUp: a request never answered holds the end of the input for drainIdle, not for
// ever.
func TestDrainGivesUp(t *testing.T) {
	old := drainIdle
	drainIdle = 50 * time.Millisecond
	defer func() { drainIdle = old }()
	tr := newInflight()
	tr.update(func() { tr.pending["1"] = true })
	done := make(chan struct{})
	go func() { tr.wait(context.Background()); close(done) }()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("wait did not give up")
	}
}

// TestStdioSameIDTwice: a request under the id of one not yet answered is refused (the transport
// would answer only one of them), and the session ends once the first is answered.
func TestStdioSameIDTwice(t *testing.T) {
	in := strings.Join([]string{
		initLine,
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
		`{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"search","arguments":{"query":"cache"}}}`,
		`{"jsonrpc":"2.0","id":9,"method":"resources/list"}`,
	}, "\n") + "\n"
	ids, out := serveLines(t, strings.NewReader(in))
	if !sameSet(ids, []string{"1", "9", "null"}) {
		t.Fatalf("answered %v, want 1, 9 and a refusal:\n%s", ids, out)
	}
	if !strings.Contains(out, `"line 4: id 9 is already used by a request not yet answered"`) {
		t.Errorf("refusal:\n%s", out)
	}
}

// TestStdioBatches: a batch is served to a client that initialized with a protocol version that
// has them (2025-03-26) and refused to one that did not (2025-06-18 removed them: the transport
// then ends the session on a batch, or not, depending on when it reads it); a batch reusing an id
// is refused either way.
func TestStdioBatches(t *testing.T) {
	batch := `[{"jsonrpc":"2.0","id":"a","method":"ping"},{"jsonrpc":"2.0","id":"b","method":"tools/list"}]`
	dup := `[{"jsonrpc":"2.0","id":"c","method":"ping"},{"jsonrpc":"2.0","id":"c","method":"ping"}]`
	last := `{"jsonrpc":"2.0","id":"last","method":"ping"}`
	for version, want := range map[string][]string{
		"2025-03-26": {"1", `"a"`, `"b"`, "null", `"last"`},
		"2025-06-18": {"1", "null", "null", `"last"`},
	} {
		init := strings.Replace(initLine, "2025-06-18", version, 1)
		for range 5 { // the refusal must not depend on when the transport reads the batch
			_, out := serveLines(t, strings.NewReader(strings.Join([]string{init, batch, dup, last}, "\n")+"\n"))
			var ids []string
			for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
				var one struct {
					ID json.RawMessage `json:"id"`
				}
				var many []struct {
					ID json.RawMessage `json:"id"`
				}
				if json.Unmarshal([]byte(line), &many) == nil {
					for _, m := range many {
						ids = append(ids, string(m.ID))
					}
				} else if json.Unmarshal([]byte(line), &one) == nil {
					ids = append(ids, string(one.ID))
				}
			}
			if !sameSet(ids, want) {
				t.Fatalf("%s: answered %v, want %v:\n%s", version, ids, want, out)
			}
		}
	}
}

// FuzzStdio: whatever comes before it on standard input, a well-formed request on the last line is
// answered and the session ends.
func FuzzStdio(f *testing.F) {
	for _, seed := range []string{"", "{bad", "42", "[]", "[{}]", `{"jsonrpc":"2.0","id":1.5,"method":"x"}`, "\x00\xff\n\n", `{"jsonrpc":"2.0","id":7,"method":"tools/list"}`,
		`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":99}}`, `[{"jsonrpc":"2.0","id":"z","method":"ping"}]`} {
		f.Add(seed)
	}
	s, _ := newServer(f, "testdata/bundle", 0)
	f.Fuzz(func(t *testing.T, junk string) {
		in := initLine + "\n" + junk + "\n" + `{"jsonrpc":"2.0","id":"last","method":"tools/list"}` + "\n"
		var out bytes.Buffer
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		defer cancel()
		done := make(chan error, 1)
		go func() { done <- s.ServeStdio(ctx, strings.NewReader(in), &out, nil) }()
		select {
		case <-done:
		case <-ctx.Done():
			t.Fatalf("the session did not end for %q", junk)
		}
		if !strings.Contains(out.String(), `"id":"last","result"`) {
			t.Fatalf("the last request was not answered after %q:\n%s", junk, out.String())
		}
	})
}

// TestStdioBatchCap: a batch, where the session's version has them, holds at most maxBatch
// messages, so one line cannot ask for thousands of answers of up to 256 KiB each at once.
func TestStdioBatchCap(t *testing.T) {
	init := strings.Replace(initLine, "2025-06-18", "2025-03-26", 1)
	mk := func(n int) string {
		var msgs []string
		for i := range n {
			msgs = append(msgs, fmt.Sprintf(`{"jsonrpc":"2.0","id":"r%d","method":"tools/call","params":{"name":"read","arguments":{"id":"glossary"}}}`, i))
		}
		return "[" + strings.Join(msgs, ",") + "]"
	}
	_, out := serveLines(t, strings.NewReader(strings.Join([]string{init, mk(maxBatch), mk(maxBatch + 1), `{"jsonrpc":"2.0","id":"last","method":"ping"}`}, "\n")+"\n"))
	lines := strings.Split(strings.TrimSpace(out), "\n")
	var served, refused int
	for _, line := range lines {
		var many []json.RawMessage
		if json.Unmarshal([]byte(line), &many) == nil {
			served += len(many)
		} else if strings.Contains(line, `"id":null`) && strings.Contains(line, "batch") {
			refused++
		}
	}
	if served != maxBatch || refused != 1 || !strings.Contains(out, `"id":"last"`) {
		t.Errorf("served %d in batches, refused %d batches, want %d and 1:\n%.2000s", served, refused, maxBatch, out)
	}
}
