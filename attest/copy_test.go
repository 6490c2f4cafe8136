package attest

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/okf-tools/okf/okf"
)

// The attester's working copy (README, Security: "leaves out named pipes and files over the
// limit"): a file over the bundle's size limit is not copied, so an attester run cannot make okf
// copy what it would not read; the other files are.
func TestCopyBundleSkipsOversizeFiles(t *testing.T) {
	src := t.TempDir()
	for name, text := range map[string]string{
		"index.md": "---\nokf_version: \"0.2\"\n---\n# R\n",
		"big.csv":  strings.Repeat("x", 4096),
		"ok.csv":   "a,b\n",
	} {
		if err := os.WriteFile(filepath.Join(src, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	b, err := okf.LoadDir(src, okf.LoadOptions{MaxFileSize: 1024})
	if err != nil {
		t.Fatal(err)
	}
	dst := filepath.Join(t.TempDir(), "copy")
	if err := copyBundle(b, dst); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dst, "big.csv")); err == nil {
		t.Error("a file over the size limit was copied")
	}
	if data, err := os.ReadFile(filepath.Join(dst, "ok.csv")); err != nil || string(data) != "a,b\n" {
		t.Errorf("ok.csv copied as %q, %v", data, err)
	}
}
