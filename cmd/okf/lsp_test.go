package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// lspPeer is a minimal LSP client over a subprocess's stdio.
type lspPeer struct {
	t   *testing.T
	in  io.WriteCloser
	out *bufio.Reader
	id  int
}

func (p *lspPeer) send(method string, params any, request bool) int {
	p.t.Helper()
	m := map[string]any{"jsonrpc": "2.0", "method": method, "params": params}
	if request {
		p.id++
		m["id"] = p.id
	}
	data, _ := json.Marshal(m)
	if _, err := fmt.Fprintf(p.in, "Content-Length: %d\r\n\r\n%s", len(data), data); err != nil {
		p.t.Fatal(err)
	}
	return p.id
}

func (p *lspPeer) next() map[string]any {
	p.t.Helper()
	n := -1
	for {
		line, err := p.out.ReadString('\n')
		if err != nil {
			p.t.Fatalf("reading a header: %v", err)
		}
		line = strings.TrimSpace(line)
		if line == "" {
			break
		}
		if v, ok := strings.CutPrefix(line, "Content-Length: "); ok {
			n, _ = strconv.Atoi(v)
		}
	}
	buf := make([]byte, n)
	if _, err := io.ReadFull(p.out, buf); err != nil {
		p.t.Fatal(err)
	}
	var m map[string]any
	json.Unmarshal(buf, &m)
	return m
}

// until reads messages until the response to id, returning it and the notifications before it.
func (p *lspPeer) until(id int) (map[string]any, []map[string]any) {
	var notes []map[string]any
	for {
		m := p.next()
		if v, ok := m["id"].(float64); ok && int(v) == id && m["method"] == nil {
			return m, notes
		}
		notes = append(notes, m)
	}
}

// TestLSPOverStdio runs okf lsp as a subprocess, as an editor starts it: initialize, open a concept,
// get its diagnostics, hover on a link, shut down and exit with 0.
func TestLSPOverStdio(t *testing.T) {
	root, _ := filepath.Abs("testdata/lsp/bundle")
	cmd := exec.Command(okfBinary(t), "lsp", "--now", "2026-06-15T00:00:00Z", "--debounce", "0s")
	in, _ := cmd.StdinPipe()
	out, _ := cmd.StdoutPipe()
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	p := &lspPeer{t: t, in: in, out: bufio.NewReader(out)}
	uri := "file://" + filepath.ToSlash(filepath.Join(root, "orders.md"))
	res, _ := p.until(p.send("initialize", map[string]any{"rootUri": "file://" + root, "capabilities": map[string]any{}}, true))
	if caps, _ := res["result"].(map[string]any); caps == nil {
		t.Fatalf("initialize: %v", res)
	}
	p.send("initialized", map[string]any{}, false)
	text, _ := os.ReadFile(filepath.Join(root, "orders.md"))
	p.send("textDocument/didOpen", map[string]any{"textDocument": map[string]any{"uri": uri, "languageId": "markdown", "version": 1, "text": string(text)}}, false)
	res, notes := p.until(p.send("textDocument/hover", map[string]any{"textDocument": map[string]any{"uri": uri}, "position": map[string]any{"line": 8, "character": 45}}, true))
	var codes []string
	for _, n := range notes {
		if n["method"] == "textDocument/publishDiagnostics" {
			for _, d := range n["params"].(map[string]any)["diagnostics"].([]any) {
				codes = append(codes, d.(map[string]any)["code"].(string))
			}
		}
	}
	if got := strings.Join(codes, " "); got != "OKF201 OKF601" {
		t.Errorf("diagnostics %q, want OKF201 (the date-only stale_after) and OKF601 (the link to missing.md)", got)
	}
	hover, _ := json.Marshal(res["result"])
	if !strings.Contains(string(hover), "human-reviewed") {
		t.Errorf("hover: %s", hover)
	}
	p.until(p.send("shutdown", nil, true))
	p.send("exit", nil, false)
	in.Close()
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("okf lsp exited with %v, want 0 after shutdown and exit", err)
		}
	case <-time.After(30 * time.Second):
		cmd.Process.Kill()
		t.Fatal("okf lsp did not exit")
	}
}

// TestLSPNeovim drives okf lsp with a real editor: Neovim headless, its built-in LSP client, and
// testdata/lsp/nvim.lua, which opens a concept, waits for diagnostics and asks for hover and
// definition. It skips when Neovim is not installed (.ci/run installs Debian's).
func TestLSPNeovim(t *testing.T) {
	nvim, err := exec.LookPath("nvim")
	if err != nil {
		t.Skip("nvim not installed: the real-editor test of okf lsp is skipped")
	}
	root, _ := filepath.Abs("testdata/lsp/bundle")
	script, _ := filepath.Abs("testdata/lsp/nvim.lua")
	out := filepath.Join(t.TempDir(), "got.txt")
	cmd := exec.Command(nvim, "--headless", "--clean", "-n", "-c", "luafile "+script)
	cmd.Env = append(os.Environ(), "OKF_NVIM_OUT="+out, "OKF_NVIM_OKF="+okfBinary(t), "OKF_NVIM_ROOT="+root, "HOME="+t.TempDir(), "XDG_STATE_HOME="+t.TempDir())
	done := make(chan []byte, 1)
	go func() { b, _ := cmd.CombinedOutput(); done <- b }()
	select {
	case b := <-done:
		got, err := os.ReadFile(out)
		if err != nil {
			t.Fatalf("nvim wrote nothing: %v\n%s", err, b)
		}
		want, _ := os.ReadFile("testdata/lsp/want.txt")
		if string(got) != string(want) {
			t.Errorf("Neovim got\n%s\nwant\n%s", got, want)
		}
	case <-time.After(60 * time.Second):
		cmd.Process.Kill()
		t.Fatal("nvim did not finish")
	}
}
