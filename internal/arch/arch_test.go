package arch

import (
	"encoding/json"
	"io"
	"os/exec"
	"strings"
	"testing"
)

const module = "github.com/okf-tools/okf"

// TestImportGraph keeps the layering: okf/ imports no sibling package; lint, trust, attest and
// generate import okf/ (and the leaf data package schemas/, and internal/ helpers) but not each
// other; migrate imports okf/ only (its edits are okf's, shared with lint --fix), and internal/ helpers; only cmd/okf ties
// them together. serve/ (the MCP server) builds on okf/ and trust/ only, and only cmd/okf imports it.
// lsp/ (the language server) builds on okf/ and lint/ (its findings and fixes are lint's, computed
// the same way), and only cmd/okf imports it.
// skill/ (a bundle made an Agent Skill, and what its levels cost) imports okf/ only; serve/ may
// import it too, to serve a bundle as a skill from the same code that writes okf skill's files.
func TestImportGraph(t *testing.T) {
	cmd := exec.Command("go", "list", "-json", "./...")
	cmd.Dir = "../.."
	out, err := cmd.Output()
	if err != nil {
		t.Skipf("go list unavailable: %v", err)
	}
	dec := json.NewDecoder(strings.NewReader(string(out)))
	seen := 0
	cmdServes := false
	for {
		var p struct {
			ImportPath string
			Imports    []string
		}
		if err := dec.Decode(&p); err == io.EOF {
			break
		} else if err != nil {
			t.Fatal(err)
		}
		seen++
		rel := strings.TrimPrefix(strings.TrimPrefix(p.ImportPath, module), "/")
		top := strings.SplitN(rel, "/", 2)[0]
		for _, imp := range p.Imports {
			if !strings.HasPrefix(imp, module+"/") {
				continue
			}
			dep := strings.TrimPrefix(imp, module+"/")
			depTop := strings.SplitN(dep, "/", 2)[0]
			if depTop == "serve" && rel == "cmd/okf" {
				cmdServes = true
			}
			if depTop == "lsp" && rel != "cmd/okf" && top != "lsp" {
				t.Errorf("%s imports %s: only cmd/okf may import lsp/", rel, dep)
			}
			if depTop == "serve" && rel != "cmd/okf" && top != "serve" {
				t.Errorf("%s imports %s: only cmd/okf may import serve/", rel, dep)
			}
			switch top {
			case "okf":
				t.Errorf("%s imports %s: okf/ must import no sibling package", rel, dep)
			case "lint", "trust", "attest", "generate":
				if depTop != "okf" && depTop != "schemas" && depTop != "internal" && depTop != top {
					t.Errorf("%s imports %s: %s/ may import only okf/ (and schemas/, internal/)", rel, dep, top)
				}
			case "migrate":
				if depTop != "okf" && depTop != "internal" && depTop != top {
					t.Errorf("%s imports %s: migrate/ may import only okf/ (and internal/)", rel, dep)
				}
			case "serve":
				if depTop != "okf" && depTop != "trust" && depTop != "skill" && depTop != top {
					t.Errorf("%s imports %s: serve/ may import only okf/, trust/ and skill/", rel, dep)
				}
			case "skill":
				if depTop != "okf" && depTop != top {
					t.Errorf("%s imports %s: skill/ may import only okf/", rel, dep)
				}
			case "lsp":
				if depTop != "okf" && depTop != "lint" && depTop != "internal" && depTop != top {
					t.Errorf("%s imports %s: lsp/ may import only okf/ and lint/ (and internal/)", rel, dep)
				}
			case "schemas":
				if depTop != "okf" && depTop != top {
					t.Errorf("%s imports %s: schemas/ is a leaf over okf/", rel, dep)
				}
			}
		}
	}
	if !cmdServes {
		t.Error("cmd/okf does not import serve/: okf serve is the only way in")
	}
	if seen < 3 {
		t.Fatalf("go list saw %d packages", seen)
	}
}
