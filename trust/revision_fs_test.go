package trust

import (
	"strings"
	"testing"

	"github.com/okf-tools/okf/okf"
)

// TestLoadRevisionSkipsOversizeBlobs: a file over the size limit at the base revision is never
// fetched from git; the loader reports it over the limit (OKF010) and loads the rest.
func TestLoadRevisionSkipsOversizeBlobs(t *testing.T) {
	repo := gitRepo(t)
	writeFiles(t, repo, map[string]string{
		"kb/ok.md":  "---\ntype: Reference\n---\n# Ok\n",
		"kb/big.md": "---\ntype: Reference\n---\n" + strings.Repeat("x", 4096),
	})
	gitRun(t, repo, "init", "-q")
	gitRun(t, repo, "add", ".")
	gitRun(t, repo, "commit", "-q", "-m", "one")
	var fetched []string
	fetchHook = func(p []string) { fetched = append(fetched, p...) }
	defer func() { fetchHook = nil }()
	b, err := LoadRevision(repo+"/kb", "HEAD", okf.LoadOptions{MaxFileSize: 1024})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(fetched, ",") != "ok.md" {
		t.Errorf("blobs fetched from git: %v, want only ok.md", fetched)
	}
	if b.Concept("ok") == nil {
		t.Error("ok.md not loaded")
	}
	if len(b.Diagnostics) != 1 || b.Diagnostics[0].Pos.Path != "big.md" || b.Diagnostics[0].Code != okf.CodeUnreadable ||
		!strings.Contains(b.Diagnostics[0].Message, "larger than the 1 KiB size limit (4.0 KiB)") {
		t.Errorf("diagnostics %v", b.Diagnostics)
	}
	// Within the default limit it is read.
	if b, err := LoadRevision(repo+"/kb", "HEAD", okf.LoadOptions{}); err != nil || len(b.Diagnostics) != 0 {
		t.Errorf("default limit: %v %v", err, b.Diagnostics)
	}
}
