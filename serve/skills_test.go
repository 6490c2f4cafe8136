package serve

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/okf-tools/okf/okf"
	"github.com/okf-tools/okf/skill"
)

// skillsClient connects a client that speaks the skills extension's two methods, of the given
// era, in memory or over HTTP.
func skillsClient(t *testing.T, s *Server, era string, http bool) *mcp.ClientSession {
	t.Helper()
	cl := mcp.NewClient(&mcp.Implementation{Name: "skills-test", Version: "1"}, nil)
	if err := mcp.AddSendingCustomMethod[*listSkillsParams, *listSkillsResult](cl, "skills/list"); err != nil {
		t.Fatal(err)
	}
	if err := mcp.AddSendingCustomMethod[*getSkillParams, *getSkillResult](cl, "skills/get"); err != nil {
		t.Fatal(err)
	}
	var tr mcp.Transport
	if http {
		hs := httptest.NewServer(s.Handler(HTTPOptions{}))
		t.Cleanup(hs.Close)
		tr = &mcp.StreamableClientTransport{Endpoint: hs.URL + Path, DisableStandaloneSSE: true}
	} else {
		st, ct := mcp.NewInMemoryTransports()
		ss, err := s.MCP().Connect(context.Background(), st, nil)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { ss.Close() })
		tr = ct
	}
	cs, err := cl.Connect(context.Background(), tr, &mcp.ClientSessionOptions{ProtocolVersion: era})
	if err != nil {
		t.Fatalf("connect (%s): %v", era, err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

// TestSkillsExtension: on both protocol eras, in memory and over HTTP, the server declares the
// extension (with the resources capability it depends on), lists one skill whose frontmatter is
// SKILL.md's and whose resources name every file of okf skill's build with its SHA-256 digest
// and size, returns the same entry from skills/get, serves each file's bytes as digested through
// resources/read, and answers -32602 for a URI it does not serve.
func TestSkillsExtension(t *testing.T) {
	ctx := context.Background()
	s, _ := newServer(t, "testdata/bundle", 0)
	o, err := okf.Open("testdata/bundle", 0)
	if err != nil {
		t.Fatal(err)
	}
	b, err := o.Load(okf.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	want, err := skill.Build(b, skill.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, era := range eras {
		for _, http := range []bool{false, true} {
			t.Run(era+map[bool]string{false: "/memory", true: "/http"}[http], func(t *testing.T) {
				cs := skillsClient(t, s, era, http)
				caps := cs.InitializeResult().Capabilities
				if _, ok := caps.Extensions[skillsExtension]; !ok || caps.Resources == nil {
					t.Fatalf("capabilities %+v: no %s extension, or no resources", caps, skillsExtension)
				}
				list, err := mcp.CallCustomMethod[*listSkillsParams, *listSkillsResult](ctx, cs, "skills/list", &listSkillsParams{})
				if err != nil {
					t.Fatal(err)
				}
				if list.ResultType != "complete" || list.TTLMs <= 0 || list.CacheScope == "" || len(list.Skills) != 1 {
					t.Fatalf("skills/list: %+v", list)
				}
				e := list.Skills[0]
				if e.URI != "skill://bundle/SKILL.md" || e.Frontmatter["name"] != "bundle" || e.Frontmatter["description"] != want.Description || len(e.Frontmatter) != 2 {
					t.Errorf("entry %s %v", e.URI, e.Frontmatter)
				}
				if len(e.Resources) != len(want.Files) {
					t.Errorf("%d resources, okf skill writes %d files", len(e.Resources), len(want.Files))
				}
				total := 0
				for i, r := range e.Resources {
					f := want.Files[min(i, len(want.Files)-1)]
					sum := sha256.Sum256(f.Data)
					if r.URI != "skill://bundle/"+f.Path || r.Size != len(f.Data) || r.Digest != "sha256:"+hex.EncodeToString(sum[:]) {
						t.Errorf("resource %+v, want %s with %d bytes", r, f.Path, len(f.Data))
					}
					total += r.Size
					read, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: r.URI})
					if err != nil {
						t.Fatalf("read %s: %v", r.URI, err)
					}
					if read.TTLMs <= 0 || read.CacheScope == "" {
						t.Errorf("read %s: ttlMs %d, cacheScope %q", r.URI, read.TTLMs, read.CacheScope)
					}
					got := []byte(read.Contents[0].Text)
					if read.Contents[0].Blob != nil {
						got = read.Contents[0].Blob
					}
					if gs := sha256.Sum256(got); "sha256:"+hex.EncodeToString(gs[:]) != r.Digest || len(got) != r.Size {
						t.Errorf("read %s: %d bytes, not what its digest covers", r.URI, len(got))
					}
				}
				if len(e.Resources) > maxSkillFiles || total > maxSkillBytes {
					t.Errorf("over the extension's limits: %d files, %d bytes", len(e.Resources), total)
				}
				get, err := mcp.CallCustomMethod[*getSkillParams, *getSkillResult](ctx, cs, "skills/get", &getSkillParams{URI: e.URI})
				if err != nil || get.ResultType != "complete" || get.Skill.URI != e.URI || len(get.Skill.Resources) != len(e.Resources) || get.TTLMs <= 0 {
					t.Fatalf("skills/get: %v %+v", err, get)
				}
				for _, bad := range []string{"skill://other/SKILL.md", "skill://bundle/catalog.md"} {
					_, err = mcp.CallCustomMethod[*getSkillParams, *getSkillResult](ctx, cs, "skills/get", &getSkillParams{URI: bad})
					if !invalidParams(err) {
						t.Errorf("skills/get %s: %v, want -32602", bad, err)
					}
				}
				if _, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: "skill://bundle/bundle/nothing.md"}); !invalidParams(err) {
					t.Errorf("read of a file the skill has not: %v, want -32602", err)
				}
			})
		}
	}
}

func invalidParams(err error) bool {
	var je *jsonrpc.Error
	return errors.As(err, &je) && je.Code == jsonrpc.CodeInvalidParams
}

// TestSkillsOverLimit: a bundle whose skill would hold more than 512 files is not offered:
// skills/list is empty and skills/get says why.
func TestSkillsOverLimit(t *testing.T) {
	dir := t.TempDir()
	for i := range maxSkillFiles {
		os.WriteFile(filepath.Join(dir, "c"+strings.Repeat("x", i%3)+string(rune('a'+i%26))+itoa(i)+".md"), []byte("---\ntype: Note\n---\nx\n"), 0o644)
	}
	s, _ := newServer(t, dir, 0)
	cs := skillsClient(t, s, eras[0], false)
	ctx := context.Background()
	list, err := mcp.CallCustomMethod[*listSkillsParams, *listSkillsResult](ctx, cs, "skills/list", &listSkillsParams{})
	if err != nil || len(list.Skills) != 0 {
		t.Fatalf("skills/list: %v %+v", err, list)
	}
	_, err = mcp.CallCustomMethod[*getSkillParams, *getSkillResult](ctx, cs, "skills/get", &getSkillParams{URI: "skill://x/SKILL.md"})
	if !invalidParams(err) || !strings.Contains(err.Error(), "more than 512 files") {
		t.Errorf("skills/get: %v", err)
	}
}

func itoa(i int) string {
	var b []byte
	for {
		b = append([]byte{byte('0' + i%10)}, b...)
		if i /= 10; i == 0 {
			return string(b)
		}
	}
}
