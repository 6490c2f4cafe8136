package main

import (
	"context"
	"encoding/json"
	"os"
	"strings"
	"testing"
	"time"

	mcpclient "github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	mcpgo "github.com/mark3labs/mcp-go/mcp"
)

// TestServeMCPGo runs mcp-go's client (the Go client besides the official SDK; it speaks both
// eras and probes with server/discover first) against okf serve over stdio: on time (the 2026-07-28
// era, from the probe) and late, a server that answers after the client's probe timed out, so it
// falls back to initialize on the same pipe (before the two-era pipe okf refused that initialize
// with `duplicate "initialize" received`). Each session searches and reads the seed bundle.
// OKF_TEST_OKF names another okf binary to run it against (an older build, to see it fail).
func TestServeMCPGo(t *testing.T) {
	okfPath := okfBinary(t)
	if p := os.Getenv("OKF_TEST_OKF"); p != "" {
		okfPath = p
	}
	bundle := seedBundle(t)
	for _, tc := range []struct {
		name, script string
		modern       bool
	}{
		{"on time", `exec "$0" serve --no-watch "$1"`, true},
		{"late", `sleep 2; exec "$0" serve --no-watch "$1"`, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
			defer cancel()
			tr := transport.NewStdio("sh", nil, "-c", tc.script, okfPath, bundle)
			c := mcpclient.NewClient(tr, mcpclient.WithDiscoverTimeout(500*time.Millisecond))
			if err := c.Start(ctx); err != nil {
				t.Fatal(err)
			}
			defer c.Close()
			init := mcpgo.InitializeRequest{}
			init.Params.ProtocolVersion = mcpgo.LATEST_PROTOCOL_VERSION
			init.Params.ClientInfo = mcpgo.Implementation{Name: "okf-test", Version: "1"}
			res, err := c.Initialize(ctx, init)
			if err != nil {
				t.Fatalf("initialize: %v", err)
			}
			if modern := res.ProtocolVersion == mcpgo.LATEST_PROTOCOL_VERSION; modern != tc.modern {
				t.Errorf("protocol %s: modern %v, want %v", res.ProtocolVersion, modern, tc.modern)
			}
			call := mcpgo.CallToolRequest{}
			call.Params.Name = "search"
			call.Params.Arguments = map[string]any{"query": "KV cache"}
			out, err := c.CallTool(ctx, call)
			if err != nil || out.IsError {
				t.Fatalf("search: %v %+v", err, out)
			}
			text, _ := json.Marshal(out.Content)
			if !strings.Contains(string(text), "concepts/kv-cache") {
				t.Errorf("search KV cache: %s", text)
			}
		})
	}
}
