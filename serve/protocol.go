package serve

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"reflect"
	"slices"
	"sort"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// This file keeps the server to what it declares, in the protocol's words. The SDK answers some
// methods whatever the capabilities say (prompts/list with an empty list, logging/setLevel with
// {}), words some errors with Go's (`unmarshaling "{…}" into a *mcp.CallToolParamsRaw: json:
// cannot unmarshal …`, the request echoed), and gives others code 0. Each of those is met here
// before the SDK: a method of a capability not declared is method-not-found, params of the wrong
// shape are invalid params naming the member and the JSON type it must have, tool arguments are
// checked against the tool's own input schema (type, range, enum, unknown names) and refused as a
// tool error that states the range.

// undeclared maps each method of a server capability okf serve does not declare to that
// capability: the SDK would answer them anyway.
var undeclared = map[string]string{
	"prompts/list":        "prompts",
	"prompts/get":         "prompts",
	"logging/setLevel":    "logging",
	"completion/complete": "completions",
}

func methodNotFound(method, capability string) *jsonrpc.Error {
	return &jsonrpc.Error{Code: jsonrpc.CodeMethodNotFound, Message: fmt.Sprintf("method not found: %s (this server does not declare the %s capability)", quote(method, maxMethod), capability)}
}

// gate is the receiving middleware that refuses what is not declared, checks tool arguments,
// gives SDK errors without a JSON-RPC code one, and on legacy HTTP sessions (which get no
// notifications: stateless, no GET stream) declares no listChanged.
func (s *Server) gate(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		if c, ok := undeclared[method]; ok {
			return nil, methodNotFound(method, c)
		}
		if (method == "resources/subscribe" || method == "resources/unsubscribe") && viaHTTP(req) {
			// Stateless HTTP keeps no session to send notifications/resources/updated on (the
			// 2026-07-28 era subscribes on its subscriptions/listen stream instead).
			return nil, &jsonrpc.Error{Code: jsonrpc.CodeMethodNotFound, Message: fmt.Sprintf("method not found: %q (stateless HTTP has no session stream for resource updates: subscribe with subscriptions/listen, 2026-07-28, or over stdio)", method)}
		}
		if method == "tools/call" {
			if p, ok := req.GetParams().(*mcp.CallToolParamsRaw); ok && p != nil {
				if sch := s.inputs[p.Name]; sch != nil {
					if why := checkArgs(p.Name, sch, p.Arguments); why != "" {
						return toolError(why, modern(p.GetMeta())), nil
					}
				}
			}
		}
		res, err := next(ctx, method, req)
		if err != nil {
			var we *jsonrpc.Error
			if !errors.As(err, &we) && !errors.Is(err, context.Canceled) && !errors.Is(err, context.DeadlineExceeded) {
				if method == "initialize" {
					return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidRequest, Message: "invalid request: this session is already initialized (initialize is sent once)"}
				}
				return nil, &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: "internal error: " + err.Error()}
			}
			return res, err
		}
		if r, ok := res.(*mcp.InitializeResult); ok && r != nil && viaHTTP(req) && r.Capabilities != nil && r.Capabilities.Resources != nil {
			// Stateless HTTP has no stream for a legacy session's notifications: promise none.
			c := *r.Capabilities
			rc := *c.Resources
			rc.ListChanged, rc.Subscribe = false, false
			c.Resources = &rc
			r.Capabilities = &c
		}
		return res, nil
	}
}

// toolError is a tool's error result. In the 2026-07-28 era a result says it is complete
// (resultType), which the SDK adds only to results its own tool handlers made; the field is not
// exported, so the result is decoded from JSON, as the SDK's client does.
func toolError(msg string, modern bool) *mcp.CallToolResult {
	res := &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: msg}}}
	if modern {
		b, _ := json.Marshal(map[string]any{"content": res.Content, "isError": true, "resultType": "complete"})
		var r mcp.CallToolResult
		if json.Unmarshal(b, &r) == nil {
			return &r
		}
	}
	return res
}

// modern reports whether a request's _meta names the 2026-07-28 revision or later.
func modern(meta map[string]any) bool {
	v, _ := meta[mcp.MetaKeyProtocolVersion].(string)
	return v >= "2026-07-28"
}

// viaHTTP reports whether a request came over HTTP (the SDK gives only those headers).
func viaHTTP(req mcp.Request) bool {
	ex := req.GetExtra()
	return ex != nil && ex.Header != nil
}

// checkArgs checks a tool's arguments against its input schema sch (an object of typed
// properties, with minimum, maximum and enum) and says what is wrong, or "" when nothing is.
func checkArgs(tool string, sch *jsonschema.Schema, raw json.RawMessage) string {
	args := map[string]any{}
	if b := bytes.TrimSpace(raw); len(b) > 0 && string(b) != "null" {
		dec := json.NewDecoder(bytes.NewReader(b))
		dec.UseNumber()
		var v any
		if dec.Decode(&v) != nil {
			return "arguments are not JSON"
		}
		m, ok := v.(map[string]any)
		if !ok {
			return fmt.Sprintf("arguments must be a JSON object, got %s", jsonKind(v))
		}
		args = m
	}
	names := slices.Sorted(func(yield func(string) bool) {
		for k := range sch.Properties {
			if !yield(k) {
				return
			}
		}
	})
	keys := make([]string, 0, len(args))
	for k := range args {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		p := sch.Properties[k]
		if p == nil {
			return fmt.Sprintf("unknown argument %s: %s takes %s", quote(k, maxEcho), tool, strings.Join(names, ", "))
		}
		if why := checkValue(k, p, args[k]); why != "" {
			return why
		}
	}
	for _, r := range sch.Required {
		if _, ok := args[r]; !ok {
			return fmt.Sprintf("%s is required", r)
		}
	}
	return ""
}

func checkValue(name string, p *jsonschema.Schema, v any) string {
	switch p.Type {
	case "string":
		s, ok := v.(string)
		if !ok {
			return fmt.Sprintf("%s must be a string, got %s", name, jsonKind(v))
		}
		if len(p.Enum) > 0 && !slices.Contains(p.Enum, any(s)) {
			var opts []string
			for _, e := range p.Enum {
				opts = append(opts, fmt.Sprint(e))
			}
			return fmt.Sprintf("%s must be one of %s, got %s", name, strings.Join(opts, ", "), quote(s, maxEcho))
		}
	case "boolean":
		if _, ok := v.(bool); !ok {
			return fmt.Sprintf("%s must be true or false, got %s", name, jsonKind(v))
		}
	case "integer":
		n, ok := v.(json.Number)
		if !ok {
			return fmt.Sprintf("%s must be an integer, got %s", name, jsonKind(v))
		}
		f, err := n.Float64()
		if err != nil || f != math.Trunc(f) || math.IsInf(f, 0) {
			return fmt.Sprintf("%s must be an integer, got %s", name, clip(n.String(), 40))
		}
		lo, hi := p.Minimum, p.Maximum
		if (lo != nil && f < *lo) || (hi != nil && f > *hi) {
			switch {
			case lo != nil && hi != nil:
				return fmt.Sprintf("%s must be from %g to %g, got %s", name, *lo, *hi, clip(n.String(), 40))
			case lo != nil:
				return fmt.Sprintf("%s must be %g or more, got %s", name, *lo, clip(n.String(), 40))
			default:
				return fmt.Sprintf("%s must be %g or less, got %s", name, *hi, clip(n.String(), 40))
			}
		}
	}
	return ""
}

// jsonKind names the JSON type of a decoded value.
func jsonKind(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case string:
		return "a string"
	case bool:
		return "a boolean"
	case json.Number, float64:
		return "a number"
	case []any:
		return "an array"
	case map[string]any:
		return "an object"
	}
	return "a value"
}

// paramsOf is the SDK's params type of each method okf serves whose params the SDK decodes before
// any middleware (and words a failure in Go's terms).
var paramsOf = map[string]reflect.Type{
	"initialize":               reflect.TypeFor[mcp.InitializeParams](),
	"ping":                     reflect.TypeFor[mcp.PingParams](),
	"server/discover":          reflect.TypeFor[mcp.DiscoverParams](),
	"subscriptions/listen":     reflect.TypeFor[mcp.SubscriptionsListenParams](),
	"tools/list":               reflect.TypeFor[mcp.ListToolsParams](),
	"tools/call":               reflect.TypeFor[mcp.CallToolParamsRaw](),
	"resources/list":           reflect.TypeFor[mcp.ListResourcesParams](),
	"resources/templates/list": reflect.TypeFor[mcp.ListResourceTemplatesParams](),
	"resources/read":           reflect.TypeFor[mcp.ReadResourceParams](),
	"notifications/cancelled":  reflect.TypeFor[mcp.CancelledParams](),
}

// paramsProblem says, in JSON's terms, why a request's params do not have the shape its method
// takes ("" when they do, or the method is not one okf checks).
func paramsProblem(method string, params json.RawMessage) string {
	t, ok := paramsOf[method]
	b := bytes.TrimSpace(params)
	if !ok || len(b) == 0 || string(b) == "null" {
		return ""
	}
	if b[0] != '{' {
		var v any
		json.Unmarshal(b, &v)
		return fmt.Sprintf("invalid params: params must be an object, got %s", jsonKind(v))
	}
	err := json.Unmarshal(b, reflect.New(t).Interface())
	var te *json.UnmarshalTypeError
	switch {
	case err == nil:
		return ""
	case errors.As(err, &te) && te.Field != "":
		return fmt.Sprintf("invalid params: params.%s must be %s, got %s", te.Field, jsonType(te.Type), article(te.Value))
	default:
		return fmt.Sprintf("invalid params: not the params %s takes", method)
	}
}

func article(jsonValue string) string {
	switch jsonValue {
	case "object", "array":
		return "an " + jsonValue
	case "null":
		return "null"
	case "":
		return "a value"
	}
	return "a " + jsonValue
}

// jsonType is the JSON type a Go type decodes from.
func jsonType(t reflect.Type) string {
	if t == nil {
		return "a value"
	}
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "a boolean"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64, reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return "an integer"
	case reflect.Float32, reflect.Float64:
		return "a number"
	case reflect.Slice, reflect.Array:
		return "an array"
	case reflect.Map, reflect.Struct:
		return "an object"
	}
	return "a value"
}

// requestProblem checks one JSON-RPC message that notMessage accepted, as both transports do
// before the SDK: the JSON-RPC error code and message for a request whose params have the wrong
// shape, and its id (code 0 when there is nothing to say).
func requestProblem(raw []byte) (code int, msg string, id json.RawMessage) {
	var m struct {
		ID     json.RawMessage `json:"id"`
		Method string          `json:"method"`
		Params json.RawMessage `json:"params"`
	}
	if json.Unmarshal(raw, &m) != nil || m.Method == "" {
		return 0, "", nil
	}
	if why := paramsProblem(m.Method, m.Params); why != "" {
		return jsonrpc.CodeInvalidParams, why, m.ID
	}
	return 0, "", nil
}

// errorLine is a JSON-RPC error response under id (null when id is empty).
func errorLine(id json.RawMessage, code int, msg string) []byte {
	if len(id) == 0 {
		id = json.RawMessage("null")
	}
	type rpcError struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	}
	b, _ := json.Marshal(struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Error   rpcError        `json:"error"`
	}{"2.0", id, rpcError{code, msg}})
	return b
}
