package arch

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// execDoors are the only files that may start a program: the git door, the attester sandbox (the
// one place bundle code runs, with --allow-exec) and the benchmark tool. Anything else that wants
// a program run goes through one of them, so that a new exec cannot skip the git door's
// neutralised config or the sandbox.
var execDoors = map[string]bool{
	"okf/git.go":                 true,
	"attest/external.go":         true,
	"attest/sandbox_linux.go":    true,
	"attest/sandbox_unix.go":     true,
	"attest/sandbox_other.go":    true,
	"attest/sandbox_nolinux.go":  true,
	"internal/bench/main.go":     true,
	"internal/bench/launcher.go": true,
	"internal/bench/build.go":    true,
}

// startsProgram are the calls besides os/exec that start a program.
var startsProgram = map[string]bool{
	"os.StartProcess": true, "syscall.Exec": true, "syscall.ForkExec": true, "syscall.StartProcess": true,
	"unix.Exec": true,
}

// TestExecOnlyThroughDoors reads every non-test Go file's imports (go/parser, not a pattern): one
// that imports os/exec, or calls os.StartProcess or syscall's exec and fork functions, must be a
// door.
func TestExecOnlyThroughDoors(t *testing.T) {
	root := "../.."
	fset := token.NewFileSet()
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".")) && p != root {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(p, ".go") || strings.HasSuffix(p, "_test.go") {
			return nil
		}
		rel, _ := filepath.Rel(root, p)
		rel = filepath.ToSlash(rel)
		if execDoors[rel] {
			return nil
		}
		f, err := parser.ParseFile(fset, p, nil, 0)
		if err != nil {
			return err
		}
		for _, imp := range f.Imports {
			if path, _ := strconv.Unquote(imp.Path.Value); path == "os/exec" {
				t.Errorf("%s imports os/exec: run git through okf.OpenGitRepo, bundle code through attest", rel)
			}
		}
		ast.Inspect(f, func(n ast.Node) bool {
			if sel, ok := n.(*ast.SelectorExpr); ok {
				if x, ok := sel.X.(*ast.Ident); ok && startsProgram[x.Name+"."+sel.Sel.Name] {
					t.Errorf("%s: %s.%s starts a program outside the doors", rel, x.Name, sel.Sel.Name)
				}
			}
			return true
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
