package arch

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// cmdWiring are the calls that wire a run together (find a root, open a bundle, read its
// configuration, load it, take its lock, plan and write): the library's one call per command does
// them (lint.Lint, trust.Run, attest.Load, generate.Index, generate.Generate, migrate.Migrate,
// serve.Run), so that a tool built on the library runs a command exactly as okf does. cmd/okf is
// flags, that call, a printer and an exit code.
var cmdWiring = map[string]string{
	"okf.Open":              "open a bundle in the library's one call",
	"okf.OpenPath":          "open a bundle in the library's one call",
	"okf.OpenBundle":        "open a bundle in the library's one call",
	"okf.OpenFS":            "open a bundle in the library's one call",
	"okf.Locate":            "place the paths named in the library's one call",
	"okf.LocateStdin":       "place the paths named in the library's one call",
	"okf.FindRoot":          "place the paths named in the library's one call",
	"okf.ParseConfig":       "read the configuration in the library's one call",
	"okf.Load":              "load the bundle in the library's one call",
	"okf.LoadDir":           "load the bundle in the library's one call",
	"okf.LoadFileSystem":    "load the bundle in the library's one call",
	"okf.LockBundle":        "the library's one call takes the lock around what it writes",
	"lint.ResolveTargets":   "lint.Lint places the paths",
	"lint.ResolveStdin":     "lint.Lint places standard input",
	"lint.LoadConfig":       "lint.Lint reads the configuration",
	"lint.NewStream":        "lint.Lint streams the run",
	"lint.FixBundle":        "lint.Lint runs the fix rounds",
	"lint.WriteBaseline":    "lint.Lint writes the baseline",
	"lint.ParseBaseline":    "lint.Lint reads the baseline",
	"trust.NewStream":       "trust.Run streams the report",
	"trust.LoadRevision":    "trust.Run reads the base",
	"attest.OnConcept":      "attest.Load loads the bundle",
	"attest.Find":           "attest.Loaded.Find looks the computation up",
	"generate.Indexes":      "generate.Index plans the indexes",
	"generate.ApplyChanges": "generate.Index writes the indexes",
	"generate.MakePlan":     "generate.Generate plans",
	"generate.CheckOptions": "generate.Generate checks the options",
	"migrate.Run":           "migrate.Migrate plans",
	"migrate.Apply":         "migrate.Migrate writes",
	"serve.New":             "serve.Run loads and serves",
	"skill.Build":           "skill.Load opens, loads and builds",
}

// cmdWiringLeft are the wiring calls cmd/okf still makes, each with the command that has no one
// call of its own yet (file: call).
var cmdWiringLeft = map[string]bool{
	"skill.go: serve.New": true, // okf budget measures the answers of a server it does not run
}

// TestCmdLeavesWiringToLibrary reads cmd/okf's non-test files (go/parser): none opens, locates,
// configures, loads, locks or writes a bundle itself, but through its command's one library call.
func TestCmdLeavesWiringToLibrary(t *testing.T) {
	bad, left := wiringCalls(t, "../../cmd/okf")
	for _, b := range bad {
		t.Error(b)
	}
	for k := range cmdWiringLeft {
		if !left[k] {
			t.Errorf("cmdWiringLeft holds %q, which cmd/okf no longer calls: remove it", k)
		}
	}
}

// wiringCalls lists the calls of cmdWiring in the non-test Go files of dir, less those of
// cmdWiringLeft, which it returns apart.
func wiringCalls(t *testing.T, dir string) (bad []string, left map[string]bool) {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	left = map[string]bool{}
	fset := token.NewFileSet()
	for _, e := range entries {
		if !strings.HasSuffix(e.Name(), ".go") || strings.HasSuffix(e.Name(), "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, filepath.Join(dir, e.Name()), nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(f, func(n ast.Node) bool {
			sel, ok := n.(*ast.SelectorExpr)
			if !ok {
				return true
			}
			x, ok := sel.X.(*ast.Ident)
			if !ok {
				return true
			}
			call := x.Name + "." + sel.Sel.Name
			why, wiring := cmdWiring[call]
			switch key := e.Name() + ": " + call; {
			case wiring && cmdWiringLeft[key]:
				left[key] = true
			case wiring:
				bad = append(bad, "cmd/okf/"+e.Name()+":"+strconv.Itoa(fset.Position(sel.Pos()).Line)+": calls "+call+": "+why)
			}
			return true
		})
	}
	return bad, left
}
