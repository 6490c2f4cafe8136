package arch

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// cmdForbidden are the calls cmd/okf must leave to the library: it is flags, one library call, a
// printer and an exit code. A bundle's files are written by okf.ApplyChanges inside the library
// command that plans them (lint.FixBundle, migrate.Apply, generate.Plan.Apply, lint.WriteBaseline),
// and nothing in cmd/okf writes, creates, renames or removes a file itself; reports are written
// through okf.WriteFileAtomic, the one writer of files named on the command line.
var cmdForbidden = map[string]string{
	"okf.ApplyChanges":     "a library command applies its own changes",
	"okf.ApplyChangesWith": "a library command applies its own changes",
	"okf.WriteFileWithin":  "write through okf.WriteFileAtomic or okf.ApplyChanges in the library",
	"os.WriteFile":         "write through okf.WriteFileAtomic",
	"os.Create":            "write through okf.WriteFileAtomic",
	"os.CreateTemp":        "write through okf.WriteFileAtomic",
	"os.OpenFile":          "write through okf.WriteFileAtomic",
	"os.Rename":            "write through okf.WriteFileAtomic",
	"os.Remove":            "the library removes what it made",
	"os.RemoveAll":         "the library removes what it made",
	"os.Mkdir":             "the library makes the folders it writes",
	"os.MkdirAll":          "the library makes the folders it writes",
	"os.Chmod":             "okf.WriteFileAtomic keeps a file's mode",
	"os.Symlink":           "okf never makes links",
}

// TestCmdHoldsNoWriting reads cmd/okf's non-test files (go/parser): none calls a writing function
// itself.
func TestCmdHoldsNoWriting(t *testing.T) {
	dir := "../../cmd/okf"
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
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
			if sel, ok := n.(*ast.SelectorExpr); ok {
				if x, ok := sel.X.(*ast.Ident); ok {
					if why, bad := cmdForbidden[x.Name+"."+sel.Sel.Name]; bad {
						t.Errorf("cmd/okf/%s:%d: calls %s.%s: %s", e.Name(), fset.Position(sel.Pos()).Line, x.Name, sel.Sel.Name, why)
					}
				}
			}
			return true
		})
	}
}
