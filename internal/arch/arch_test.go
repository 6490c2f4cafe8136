package arch

import (
	"encoding/json"
	"errors"
	"io"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

const module = "github.com/okf-tools/okf"

// leaves are the utility packages under internal/ that okf/ and every other package may import:
// escaping for each kind of output, did-you-mean, byte sizes, unified diffs, the SQL of a
// computation, lazily compiled regexps. A leaf imports no package of the module but other leaves,
// so okf/ can use them and stay the model that imports nothing else of the module.
var leaves = map[string]bool{
	"internal/escape":   true,
	"internal/suggest":  true,
	"internal/bytesize": true,
	"internal/textdiff": true,
	"internal/sqllex":   true,
	"internal/lazyre":   true,
}

// mayImport says which top-level packages (rooms) each room may import besides itself and the
// leaves: okf/ (the model, its parsers under okf/internal/ and the one door) nothing else, and
// those parsers not even okf/ (okfParsers); lint, trust, attest and generate import okf/ (and the
// leaf data package schemas/) but not each other; migrate imports okf/ only (its edits are okf's,
// shared with lint --fix); serve/ (the MCP server) builds on okf/ and trust/, and skill/ (a bundle
// made an Agent Skill, whose files serve/ serves from the same code); lsp/ (the language server)
// builds on okf/ and lint/ (its findings and fixes are lint's, computed the same way); skill/
// imports okf/ only; schemas/ is a leaf over okf/. A room not listed (cmd/, internal/'s tools and
// tests) may import any; only cmd/okf ties the commands together, and only it may import serve/
// and lsp/.
var mayImport = map[string][]string{
	"okf":      nil,
	"lint":     {"okf", "schemas"},
	"trust":    {"okf", "schemas"},
	"attest":   {"okf", "schemas"},
	"generate": {"okf", "schemas"},
	"migrate":  {"okf"},
	"serve":    {"okf", "trust", "skill"},
	"skill":    {"okf"},
	"lsp":      {"okf", "lint"},
	"schemas":  {"okf"},
}

// okfParsers are okf/'s own parsers under okf/internal/: the YAML fast path (how a frontmatter
// becomes the yaml.v3 tree) and the Markdown fast path (how a body becomes the lists of okf's Body,
// in types of its own that mirror the model's). okf/ imports them; they import no package of the
// module, not even okf/ (whose model they fill through their own types) nor a leaf, so that each
// can be read, tested and fuzzed on its own.
var okfParsers = map[string]bool{
	"okf/internal/fastyaml": true,
	"okf/internal/fastmd":   true,
}

// TestImportGraph keeps the layering of leaves, okfParsers and mayImport, reading
// `go list -json ./...`.
func TestImportGraph(t *testing.T) {
	// -e: a package that does not build (an import cycle a new import made) is reported in its
	// Error, not by go list failing, which would otherwise turn every check here off.
	out := goList(t, "-e", "-json", "./...")
	dec := json.NewDecoder(strings.NewReader(string(out)))
	seen := 0
	cmdServes := false
	found := map[string]bool{}
	for {
		var p struct {
			ImportPath string
			Imports    []string
			Error      *struct{ Err string }
			DepsErrors []struct{ Err string }
		}
		if err := dec.Decode(&p); err == io.EOF {
			break
		} else if err != nil {
			t.Fatal(err)
		}
		seen++
		if p.Error != nil {
			t.Errorf("%s: %s", p.ImportPath, p.Error.Err)
		}
		for _, e := range p.DepsErrors {
			t.Errorf("%s: a dependency: %s", p.ImportPath, e.Err)
		}
		rel := strings.TrimPrefix(strings.TrimPrefix(p.ImportPath, module), "/")
		top := strings.SplitN(rel, "/", 2)[0]
		found[rel] = true
		if _, ruled := mayImport[top]; !ruled && top != "cmd" && top != "internal" {
			t.Errorf("%s is in a room mayImport does not name: say what %s/ may import", rel, top)
		}
		for _, imp := range p.Imports {
			if !strings.HasPrefix(imp, module+"/") {
				continue
			}
			dep := strings.TrimPrefix(imp, module+"/")
			depTop := strings.SplitN(dep, "/", 2)[0]
			if depTop == "serve" && rel == "cmd/okf" {
				cmdServes = true
			}
			if okfParsers[rel] {
				t.Errorf("%s imports %s: okf's parsers under okf/internal/ import nothing of the module", rel, dep)
				continue
			}
			if leaves[rel] {
				if !leaves[dep] {
					t.Errorf("%s imports %s: a leaf under internal/ imports only other leaves", rel, dep)
				}
				continue
			}
			if depTop == "lsp" && rel != "cmd/okf" && top != "lsp" {
				t.Errorf("%s imports %s: only cmd/okf may import lsp/", rel, dep)
			}
			if depTop == "serve" && rel != "cmd/okf" && top != "serve" {
				t.Errorf("%s imports %s: only cmd/okf may import serve/", rel, dep)
			}
			allowed, ruled := mayImport[top]
			if !ruled || leaves[dep] || depTop == top || slices.Contains(allowed, depTop) {
				continue
			}
			if len(allowed) == 0 {
				t.Errorf("%s imports %s: %s/ may import only the leaves under internal/", rel, dep, top)
			} else {
				t.Errorf("%s imports %s: %s/ may import only %s/ and the leaves under internal/", rel, dep, top, strings.Join(allowed, "/, "))
			}
		}
	}
	for leaf := range leaves {
		if !found[leaf] {
			t.Errorf("leaf %s is not a package of the module: keep leaves up to date", leaf)
		}
	}
	for parser := range okfParsers {
		if !found[parser] {
			t.Errorf("okf parser %s is not a package of the module: keep okfParsers up to date", parser)
		}
	}
	if !cmdServes {
		t.Error("cmd/okf does not import serve/: okf serve is the only way in")
	}
	if seen < 3 {
		t.Fatalf("go list saw %d packages", seen)
	}
}

// goList runs the go command's list in the module root. It skips the test only where there is no
// go command to run; any other failure fails it.
func goList(t *testing.T, args ...string) []byte {
	t.Helper()
	cmd := exec.Command("go", append([]string{"list"}, args...)...)
	cmd.Dir = filepath.Join("..", "..")
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if errors.Is(err, exec.ErrNotFound) {
		t.Skipf("no go command: %v", err)
	}
	if err != nil {
		t.Fatalf("go list %s: %v\n%s", strings.Join(args, " "), err, stderr.String())
	}
	return out
}
