package serve

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"net/url"
	"path"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/okf-tools/okf/okf"
	"github.com/okf-tools/okf/skill"
)

// The MCP skills extension (io.modelcontextprotocol/skills, SEP-2640): the bundle is served as one
// Agent Skill, the very files okf skill writes (package skill builds both), each a resource at
// skill://<name>/<path>, listed with its SHA-256 digest and size by skills/list and skills/get.
//
// It is on by default: a host calls skills/list only after seeing the capability, fetches no file
// ahead of need, and a host without the extension sees nothing new (the skill's files are not in
// resources/list); the skill's own text is okf's, and its files are the bundle the server already
// serves as okf:// resources, so it exposes nothing more.
const skillsExtension = "io.modelcontextprotocol/skills"

// The extension's per-skill limits: a conforming host must accept a skill within them, and a
// server should not serve one beyond them.
const (
	maxSkillFiles = 512
	maxSkillBytes = 16 << 20
)

// skillsCapability is the extension's entry in the server's capabilities: no optional feature
// (no resources/directory/read; the manifest lists every file).
func skillsCapability() map[string]any {
	return map[string]any{skillsExtension: map[string]any{}}
}

// skillState is the skill of the snapshot last asked for, built on first use and kept with the
// snapshot it was built from, so a reload builds it again.
type skillState struct {
	mu    sync.Mutex
	snap  *snapshot
	built *servedSkill
	err   error
}

// servedSkill is a skill with its files by URI.
type servedSkill struct {
	s     *skill.Skill
	entry skillEntry
	files map[string][]byte // URI → bytes
}

type skillResource struct {
	URI    string `json:"uri"`
	Digest string `json:"digest"`
	Size   int    `json:"size"`
}

type skillEntry struct {
	URI         string            `json:"uri"`
	Frontmatter map[string]string `json:"frontmatter"`
	Resources   []skillResource   `json:"resources"`
}

type listSkillsParams struct {
	mcp.ParamsBase
	Cursor string `json:"cursor,omitempty"`
}

type listSkillsResult struct {
	mcp.ResultBase
	mcp.Cacheable
	ResultType string       `json:"resultType"`
	Skills     []skillEntry `json:"skills"`
}

type getSkillParams struct {
	mcp.ParamsBase
	URI string `json:"uri"`
}

type getSkillResult struct {
	mcp.ResultBase
	mcp.Cacheable
	ResultType string     `json:"resultType"`
	Skill      skillEntry `json:"skill"`
}

// skillTemplate makes the skill's files resources: the SDK reads them through readSkillFile, and
// so gives the answer what each protocol era requires of a read (resultType, ttlMs). The files
// are not in resources/list: the skill's manifest lists them.
var skillTemplate = &mcp.ResourceTemplate{
	Name:        "skill-file",
	Title:       "A file of the bundle's Agent Skill",
	URITemplate: "skill://{+path}",
	Description: "A file of the skill skills/list describes (the skills extension).",
}

// addSkills registers skills/list, skills/get and the skill:// resources.
func (s *Server) addSkills() {
	// Registration fails only for a standard method's name, which these are not.
	_ = mcp.AddReceivingCustomMethod(s.mcp, "skills/list", func(ctx context.Context, _ *mcp.ServerSession, _ *listSkillsParams) (*listSkillsResult, error) {
		res := &listSkillsResult{ResultType: "complete", Skills: []skillEntry{}, Cacheable: mcp.Cacheable{TTLMs: s.ttl(), CacheScope: "public"}}
		if sk, err := s.skill(); err == nil {
			res.Skills = append(res.Skills, sk.entry)
		}
		return res, nil
	})
	_ = mcp.AddReceivingCustomMethod(s.mcp, "skills/get", func(ctx context.Context, _ *mcp.ServerSession, p *getSkillParams) (*getSkillResult, error) {
		sk, err := s.skill()
		if err != nil {
			return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: fmt.Sprintf("no skill is served at %s: %v", clipURI(p.URI), err)}
		}
		if p.URI != sk.entry.URI {
			return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: fmt.Sprintf("no skill is served at %s (the skill is %s)", clipURI(p.URI), sk.entry.URI)}
		}
		return &getSkillResult{ResultType: "complete", Skill: sk.entry, Cacheable: mcp.Cacheable{TTLMs: s.ttl(), CacheScope: "public"}}, nil
	})
	s.mcp.AddResourceTemplate(skillTemplate, s.readSkillFile)
}

// clipURI shows a client's URI in an error: quoted, escaped, at most maxEcho bytes.
func clipURI(u string) string {
	if len(u) > maxEcho {
		u = u[:maxEcho] + "…"
	}
	return fmt.Sprintf("%q", u)
}

// skill returns the skill of the current snapshot, building it on first use.
func (s *Server) skill() (*servedSkill, error) {
	snap := s.snap.Load()
	st := &s.skills
	st.mu.Lock()
	defer st.mu.Unlock()
	if st.snap != snap {
		st.snap, st.built, st.err = snap, nil, nil
		st.built, st.err = buildSkill(snap.bundle)
		if st.err != nil {
			s.opts.report("not offered as a skill: %v", st.err)
		}
	}
	return st.built, st.err
}

// buildSkill makes the bundle's skill as okf skill writes it, within the extension's limits.
func buildSkill(b *okf.Bundle) (*servedSkill, error) {
	sk, err := skill.Build(b, skill.Options{MaxFiles: maxSkillFiles, MaxBytes: maxSkillBytes})
	if err != nil {
		return nil, err
	}
	total := 0
	for _, f := range sk.Files {
		total += len(f.Data)
	}
	if len(sk.Files) > maxSkillFiles || total > maxSkillBytes {
		return nil, fmt.Errorf("the skill holds %d files, %d bytes: over the skills extension's limits of %d files and %d bytes", len(sk.Files), total, maxSkillFiles, maxSkillBytes)
	}
	out := &servedSkill{s: sk, files: map[string][]byte{}}
	out.entry = skillEntry{URI: skillURI(sk.Name, skill.SkillFile), Frontmatter: map[string]string{"name": sk.Name, "description": sk.Description}}
	for _, f := range sk.Files {
		u := skillURI(sk.Name, f.Path)
		sum := sha256.Sum256(f.Data)
		out.entry.Resources = append(out.entry.Resources, skillResource{URI: u, Digest: "sha256:" + hex.EncodeToString(sum[:]), Size: len(f.Data)})
		out.files[u] = f.Data
	}
	return out, nil
}

// skillURI is the resource URI of the file p (a slash path) of the skill name: each segment
// percent-encoded as SKILL.md's relative links are, so a link resolved against the skill's root
// is the file's URI.
func skillURI(name, p string) string {
	parts := strings.Split(p, "/")
	for i, s := range parts {
		parts[i] = url.PathEscape(s)
	}
	return "skill://" + name + "/" + strings.Join(parts, "/")
}

// readSkillFile returns a file of the skill, the bytes its digest covers.
func (s *Server) readSkillFile(_ context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
	uri := req.Params.URI
	sk, err := s.skill()
	if err != nil {
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: fmt.Sprintf("no skill file is served at %s: %v", clipURI(uri), err)}
	}
	data, ok := sk.files[uri]
	if !ok {
		// Accept other percent-encoding of the same path.
		if rest, cut := strings.CutPrefix(uri, "skill://"+sk.s.Name+"/"); cut {
			if p, err := url.PathUnescape(rest); err == nil {
				data, ok = sk.files[skillURI(sk.s.Name, p)]
				uri = skillURI(sk.s.Name, p)
			}
		}
	}
	if !ok {
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: fmt.Sprintf("no skill file is served at %s", clipURI(uri))}
	}
	if len(data) > maxResource-envelope {
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: fmt.Sprintf("%s is %d bytes, over the %d-byte limit of a resource read", clipURI(uri), len(data), maxResource)}
	}
	c := &mcp.ResourceContents{URI: uri, MIMEType: mimeOf(uri, data)}
	if utf8.Valid(data) {
		c.Text = string(data)
	} else {
		c.Blob = data
	}
	return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{c}}, nil
}

// mimeTypes are the MIME types of the files bundles carry, by extension: a fixed table, not the
// machine's, so every server says the same.
var mimeTypes = map[string]string{
	".md": "text/markdown", ".txt": "text/plain", ".csv": "text/csv", ".json": "application/json",
	".yaml": "application/yaml", ".yml": "application/yaml", ".sql": "application/sql", ".py": "text/x-python",
	".html": "text/html", ".svg": "image/svg+xml", ".png": "image/png", ".jpg": "image/jpeg", ".pdf": "application/pdf",
}

// mimeOf is a skill file's MIME type: by extension, else text/plain for UTF-8 text, else
// application/octet-stream.
func mimeOf(uri string, data []byte) string {
	if t, ok := mimeTypes[strings.ToLower(path.Ext(uri))]; ok {
		return t
	}
	if utf8.Valid(data) {
		return "text/plain"
	}
	return "application/octet-stream"
}
