package lsp

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/textproto"
	"strconv"
	"strings"
	"sync"
)

// The Language Server Protocol frames JSON-RPC 2.0 messages with a Content-Length header. The
// framing is small enough to write here: the Go LSP libraries are either internal to gopls or
// carry a logging framework and their own JSON-RPC stack for what is a header and a JSON value.

// MaxMessageSize bounds one message from the client: a document okf reads is at most the bundle's
// file size limit (8 MiB by default), sent as JSON with escapes; a larger message is refused and
// the connection ends, since what follows it cannot be found without reading it.
const MaxMessageSize = 64 << 20

// maxHeaderBytes bounds the header block of one message.
const maxHeaderBytes = 4096

// message is one JSON-RPC message: a request (ID and Method), a notification (Method only) or a
// response (ID and Result or Error).
type message struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id,omitempty"`
	Method  string          `json:"method,omitempty"`
	Params  json.RawMessage `json:"params,omitempty"`
	Result  json.RawMessage `json:"result,omitempty"`
	Error   *rpcError       `json:"error,omitempty"`
}

// rpcError is a JSON-RPC error object.
type rpcError struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
}

// The JSON-RPC and LSP error codes okf answers with.
const (
	codeParseError     = -32700
	codeInvalidRequest = -32600
	codeMethodNotFound = -32601
	codeInvalidParams  = -32602
	codeInternalError  = -32603
	codeNotInitialized = -32002
	codeRequestFailed  = -32803
)

// conn reads and writes framed messages. Writes are serialised: responses and notifications may be
// sent from the debounce timer's goroutine too.
type conn struct {
	r   *bufio.Reader
	w   io.Writer
	wmu sync.Mutex
}

func newConn(r io.Reader, w io.Writer) *conn {
	return &conn{r: bufio.NewReaderSize(r, 64<<10), w: w}
}

// errTooLarge is returned for a message over MaxMessageSize.
var errTooLarge = errors.New("message over the size limit")

// read returns the next message's JSON; io.EOF at the end of the stream.
func (c *conn) read() ([]byte, error) {
	length := -1
	seen := 0
	for {
		// ReadSlice, not ReadString: a line that never ends is refused once it passes the limit
		// (at most the reader's buffer, larger than the limit, is read; bufio.ErrBufferFull lands
		// here), not gathered whole into memory first.
		chunk, err := c.r.ReadSlice('\n')
		seen += len(chunk)
		if seen > maxHeaderBytes {
			return nil, errors.New("message header over 4096 bytes")
		}
		line := string(chunk)
		if err != nil {
			if err == io.EOF && seen == 0 {
				return nil, io.EOF
			}
			return nil, fmt.Errorf("reading a message header: %w", err)
		}
		line = strings.TrimRight(line, "\r\n")
		if line == "" {
			break
		}
		k, v, ok := strings.Cut(line, ":")
		if !ok {
			return nil, fmt.Errorf("message header line %q has no colon", line)
		}
		if textproto.CanonicalMIMEHeaderKey(strings.TrimSpace(k)) == "Content-Length" {
			n, err := strconv.Atoi(strings.TrimSpace(v))
			if err != nil || n < 0 {
				return nil, fmt.Errorf("Content-Length %q is not a length", strings.TrimSpace(v))
			}
			length = n
		}
	}
	if length < 0 {
		return nil, errors.New("message without a Content-Length header")
	}
	if length > MaxMessageSize {
		return nil, fmt.Errorf("%w: %d bytes (at most %d)", errTooLarge, length, MaxMessageSize)
	}
	buf := make([]byte, length)
	if _, err := io.ReadFull(c.r, buf); err != nil {
		return nil, fmt.Errorf("reading a message body: %w", err)
	}
	return buf, nil
}

// write sends one message.
func (c *conn) write(m *message) error {
	m.JSONRPC = "2.0"
	data, err := json.Marshal(m)
	if err != nil {
		return err
	}
	c.wmu.Lock()
	defer c.wmu.Unlock()
	if _, err := fmt.Fprintf(c.w, "Content-Length: %d\r\n\r\n", len(data)); err != nil {
		return err
	}
	_, err = c.w.Write(data)
	return err
}

func (c *conn) reply(id json.RawMessage, result any) error {
	data, err := json.Marshal(result)
	if err != nil {
		return c.replyError(id, codeInternalError, "the answer could not be encoded")
	}
	return c.write(&message{ID: id, Result: data})
}

func (c *conn) replyError(id json.RawMessage, code int, msg string) error {
	if id == nil {
		id = json.RawMessage("null")
	}
	return c.write(&message{ID: id, Error: &rpcError{Code: code, Message: msg}})
}

func (c *conn) notify(method string, params any) error {
	data, err := json.Marshal(params)
	if err != nil {
		return err
	}
	return c.write(&message{Method: method, Params: data})
}
