package serve

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/okf-tools/okf/okf"
)

func waitListChanged(t *testing.T, c *client) {
	t.Helper()
	select {
	case <-c.listChanged:
	case <-time.After(10 * time.Second):
		t.Fatal("no notifications/resources/list_changed after the reload")
	}
}

func TestReload(t *testing.T) {
	for _, era := range eras {
		t.Run(era, func(t *testing.T) {
			dir := copyBundle(t)
			s, rep := newServer(t, dir, 0)
			c := inMemory(t, s, era)
			kv := filepath.Join(dir, "caching/kv-cache.md")

			// An edit: the new title is searched and listed, and the host is told the list changed.
			data, _ := os.ReadFile(kv)
			os.WriteFile(kv, []byte(strings.Replace(string(data), "title: KV cache", "title: Key-value cache", 1)), 0o644)
			if err := s.Reload(); err != nil {
				t.Fatal(err)
			}
			waitListChanged(t, c)
			var out SearchOut
			call(t, c, "search", map[string]any{"query": "key value"}, &out)
			if len(out.Hits) == 0 || out.Hits[0].ID != "caching/kv-cache" || out.Hits[0].Title != "Key-value cache" {
				t.Errorf("after edit: %+v", out.Hits)
			}

			// A file broken mid-edit: its last good version is served and the error reported, with
			// the trust facts of that version (those a server started on it gives; the last
			// snapshot had not made its trust analysis yet: only search was called).
			var wantTrust TrustOut
			fresh, _ := newServer(t, copyBundle(t), 0)
			call(t, inMemory(t, fresh, era), "trust", map[string]any{"id": "caching/paged-attention"}, &wantTrust)
			pa := filepath.Join(dir, "caching/paged-attention.md")
			good, _ := os.ReadFile(pa)
			os.WriteFile(pa, []byte("---\ntype: [Concept\ntitle: Paged\n---\nhalf-written"), 0o644)
			if err := s.Reload(); err != nil {
				t.Fatal(err)
			}
			var r ReadOut
			call(t, c, "read", map[string]any{"id": "caching/paged-attention"}, &r)
			if !strings.HasPrefix(r.Trust, "Trust: unverified draft;") || !strings.Contains(r.Trust, "Note: the file on disk has an error at line 3, column 1 (okf lint names it)") || !strings.Contains(r.Text, "like virtual memory") {
				t.Errorf("broken file: %+v", r)
			}
			res, err := c.ReadResource(context.Background(), &mcp.ReadResourceParams{URI: "okf://caching/paged-attention"})
			if err != nil || res.Contents[0].Text != string(good) {
				t.Errorf("broken file as a resource: %v %+v", err, res)
			}
			var gotTrust TrustOut
			call(t, c, "trust", map[string]any{"id": "caching/paged-attention"}, &gotTrust)
			if len(gotTrust.Notes) != 1 || !strings.Contains(gotTrust.Notes[0], "this is its last good version") {
				t.Errorf("broken file's trust notes: %q", gotTrust.Notes)
			}
			gotTrust.Notes = nil
			if !reflect.DeepEqual(gotTrust, wantTrust) || len(wantTrust.DerivesFrom) == 0 || wantTrust.Generated == nil {
				t.Errorf("broken file's trust:\n%+v\nwant the last good version's\n%+v", gotTrust, wantTrust)
			}
			if !strings.Contains(rep.all(), "caching/paged-attention.md: serving the last good version") {
				t.Errorf("reports:\n%s", rep.all())
			}
			// Still broken on the next reload: still the last good version.
			s.Reload()
			call(t, c, "read", map[string]any{"id": "caching/paged-attention"}, &r)
			if !strings.Contains(r.Text, "like virtual memory") {
				t.Errorf("second reload lost the last good version: %+v", r)
			}

			// A removed file is gone: not found as a resource, a tool error in read.
			os.Remove(filepath.Join(dir, "glossary.md"))
			if err := s.Reload(); err != nil {
				t.Fatal(err)
			}
			waitListChanged(t, c)
			_, err = c.ReadResource(context.Background(), &mcp.ReadResourceParams{URI: "okf://glossary"})
			var je *jsonrpc.Error
			if !errors.As(err, &je) || je.Code != jsonrpc.CodeInvalidParams {
				t.Errorf("removed file: %v", err)
			}
			if res := call(t, c, "read", map[string]any{"id": "glossary"}, nil); !res.IsError {
				t.Error("removed file: read is not an error")
			}

			// The bundle folder itself gone: the last snapshot stays.
			moved := dir + ".moved"
			os.Rename(dir, moved)
			defer os.Rename(moved, dir)
			if err := s.Reload(); err == nil {
				t.Error("reload of a missing folder: no error")
			}
			call(t, c, "search", map[string]any{"query": "key value"}, &out)
			if len(out.Hits) == 0 {
				t.Error("missing folder: the last snapshot was dropped")
			}
		})
	}
}

// TestWatch edits a file under a watched bundle and waits (bounded) for the change to be served.
func TestWatch(t *testing.T) {
	dir := copyBundle(t)
	s, _ := newServer(t, dir, 0)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { s.Watch(ctx); close(done) }()
	defer func() { cancel(); <-done }()
	c := inMemory(t, s, eras[1])
	time.Sleep(100 * time.Millisecond) // let the watcher add its folders
	os.MkdirAll(filepath.Join(dir, "new"), 0o755)
	time.Sleep(400 * time.Millisecond) // the new folder is picked up on the reload it causes
	zebra := []byte("---\ntype: Concept\ntitle: Zebra crossing\n---\nStripes.\n")
	os.WriteFile(filepath.Join(dir, "new/zebra.md"), zebra, 0o644)
	deadline := time.Now().Add(10 * time.Second)
	for i := 1; ; i++ {
		if i%10 == 0 {
			// Written again: on a busy machine the first write may come before the watcher has
			// the new folder (the waits above are not a promise); a later one is seen.
			os.WriteFile(filepath.Join(dir, "new/zebra.md"), zebra, 0o644)
		}
		var out SearchOut
		call(t, c, "search", map[string]any{"query": "zebra"}, &out)
		if len(out.Hits) == 1 && out.Hits[0].ID == "new/zebra" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the new concept in a new folder was not served within 10s")
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// TestReloadNotifiesOverHTTP: a 2026-07-28 client over stateless HTTP hears of a list change through
// its subscriptions/listen stream; a 2025-11-25 client over stateless HTTP has no stream to hear it
// on (GET is refused in stateless mode) and relies on ttlMs.
func TestReloadNotifiesOverHTTP(t *testing.T) {
	dir := copyBundle(t)
	s, _ := newServer(t, dir, 0)
	c := overHTTP(t, s, eras[0])
	time.Sleep(100 * time.Millisecond) // the listen stream is opened during Connect; let it settle
	os.Remove(filepath.Join(dir, "glossary.md"))
	if err := s.Reload(); err != nil {
		t.Fatal(err)
	}
	waitListChanged(t, c)
}

// TestReloadKeepsServingOnBadConfig: a .okf.yaml broken while serving is refused as every command
// refuses it (an *okf.ConfigError), and the last good version stays served; fixed, it applies.
func TestReloadKeepsServingOnBadConfig(t *testing.T) {
	dir := copyBundle(t)
	s, _ := newServer(t, dir, 0)
	c := inMemory(t, s, eras[0])
	cfg := filepath.Join(dir, ".okf.yaml")
	os.WriteFile(cfg, []byte("ignores: [\"caching/**\"]\n"), 0o644)
	err := s.Reload()
	var ce *okf.ConfigError
	if !errors.As(err, &ce) || !strings.Contains(err.Error(), `unknown key "ignores"; did you mean "ignore"?`) {
		t.Fatalf("reload with a bad .okf.yaml: %v", err)
	}
	if res := call(t, c, "read", map[string]any{"id": "caching/kv-cache"}, nil); res.IsError {
		t.Error("bad configuration: the last snapshot was dropped")
	}
	os.WriteFile(cfg, []byte("ignore: [\"caching/**\"]\n"), 0o644)
	if err := s.Reload(); err != nil {
		t.Fatal(err)
	}
	if res := call(t, c, "read", map[string]any{"id": "caching/kv-cache"}, nil); !res.IsError {
		t.Error("a file the configuration now ignores is still served")
	}
}

// TestNewRefusesBelowRoot: a folder below a bundle's root is refused, naming the root, and a path in
// no bundle is an *okf.NotBundleError; neither is served.
func TestNewRefusesBelowRoot(t *testing.T) {
	dir := copyBundle(t)
	_, err := New(Options{Dir: filepath.Join(dir, "caching")})
	var pe *okf.PathError
	if !errors.As(err, &pe) || !strings.Contains(pe.Msg, "is inside the OKF bundle") {
		t.Errorf("a folder below the root: %v", err)
	}
	_, err = New(Options{Dir: t.TempDir()})
	var nb *okf.NotBundleError
	if !errors.As(err, &nb) {
		t.Errorf("an empty folder: %v", err)
	}
}

// TestTTLFollowsWatching: ttlMs says how long a kept read may be trusted: a second while the
// bundle is watched (an edit is served within settle of it), an hour when it is not (it changes
// only with a restart). It was 60 s either way: a caching host served a concept's old text for a
// minute after search had the new one.
func TestTTLFollowsWatching(t *testing.T) {
	dir := copyBundle(t)
	s, _ := newServer(t, dir, 0)
	c := inMemory(t, s, eras[1])
	read := func() int {
		res, err := c.ReadResource(context.Background(), &mcp.ReadResourceParams{URI: "okf://caching/kv-cache"})
		if err != nil {
			t.Fatal(err)
		}
		return res.TTLMs
	}
	if got := read(); got != staticTTL {
		t.Errorf("not watched: ttlMs %d, want %d", got, staticTTL)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { s.Watch(ctx); close(done) }()
	for i := 0; !s.watching.Load(); i++ {
		if i > 1000 {
			t.Fatal("the watcher did not start")
		}
		time.Sleep(10 * time.Millisecond)
	}
	if got := read(); got != watchTTL {
		t.Errorf("watched: ttlMs %d, want %d", got, watchTTL)
	}
	lr, err := c.ListResources(context.Background(), nil)
	if err != nil || lr.TTLMs != watchTTL {
		t.Errorf("watched: list ttlMs %v (%v), want %d", lr.TTLMs, err, watchTTL)
	}
	cancel()
	<-done
}

// TestResourceUpdatedOnReload: a host subscribed to a concept is sent
// notifications/resources/updated when a reload changes it, in both eras (resources/subscribe;
// in 2026-07-28 on its subscriptions/listen stream); one not subscribed to it is not.
func TestResourceUpdatedOnReload(t *testing.T) {
	for _, era := range eras {
		t.Run(era, func(t *testing.T) {
			dir := copyBundle(t)
			s, _ := newServer(t, dir, 0)
			got := make(chan string, 16)
			st, ct := mcp.NewInMemoryTransports()
			ss, err := s.MCP().Connect(context.Background(), st, nil)
			if err != nil {
				t.Fatal(err)
			}
			defer ss.Close()
			cl := mcp.NewClient(&mcp.Implementation{Name: "t", Version: "1"}, &mcp.ClientOptions{
				ResourceUpdatedHandler: func(_ context.Context, r *mcp.ResourceUpdatedNotificationRequest) { got <- r.Params.URI },
			})
			cs, err := cl.Connect(context.Background(), ct, &mcp.ClientSessionOptions{ProtocolVersion: era})
			if err != nil {
				t.Fatal(err)
			}
			defer cs.Close()
			if err := cs.Subscribe(context.Background(), &mcp.SubscribeParams{URI: "okf://caching/kv-cache"}); err != nil {
				t.Fatal(err)
			}
			p := filepath.Join(dir, "caching", "paged-attention.md")
			edit := func(p string) {
				b, _ := os.ReadFile(p)
				if err := os.WriteFile(p, append(b, "\nMore.\n"...), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			// The 2026-07-28 client opens its subscriptions/listen stream after Subscribe returns,
			// so the edit is made again until the server has the subscription (at most 10 s).
			deadline := time.Now().Add(10 * time.Second)
			for {
				edit(p) // not subscribed
				edit(filepath.Join(dir, "caching", "kv-cache.md"))
				if err := s.Reload(); err != nil {
					t.Fatal(err)
				}
				var u string
				select {
				case u = <-got:
				case <-time.After(100 * time.Millisecond):
				}
				if u != "" {
					if u != "okf://caching/kv-cache" {
						t.Errorf("updated %q, want okf://caching/kv-cache", u)
					}
					break
				}
				if time.Now().After(deadline) {
					t.Fatal("no notifications/resources/updated after the reload")
				}
			}
			select {
			case u := <-got:
				t.Errorf("also updated %q", u)
			case <-time.After(200 * time.Millisecond):
			}
		})
	}
}
