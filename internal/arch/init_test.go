package arch

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// costlyAtInit are the packages whose constructors cost every okf process when a package-level
// variable calls them at init (compiling a regexp or a template, building a Markdown parser),
// a one-file lint included: issue 11 counts that fixed cost per file. Build such values on first
// use instead (lazyRegexp, sync.OnceValue).
var costlyAtInit = []string{"regexp", "text/template", "html/template", "github.com/yuin/goldmark", "github.com/santhosh-tekuri/jsonschema/v6"}

// TestNoCostlyPackageInit keeps the module's packages cheap to initialise: no init functions, no
// package-level variable that calls into costlyAtInit as the program starts, and every
// `&lazyRegexp{expr: …}` (Expr outside okf/) a constant that compiles (a lazy regexp is otherwise first compiled, and
// could first fail, in a user's run).
func TestNoCostlyPackageInit(t *testing.T) {
	root := filepath.Join("..", "..")
	fset := token.NewFileSet()
	files, lazies := 0, 0
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		if d.IsDir() {
			// internal/'s tools and tests are not in okf processes; its leaves are.
			inInternal := strings.HasPrefix(filepath.ToSlash(rel), "internal/") && !leaves[filepath.ToSlash(rel)]
			if rel != "." && (strings.HasPrefix(d.Name(), ".") || d.Name() == "testdata" || inInternal) {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(p, ".go") || strings.HasSuffix(p, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, p, nil, 0)
		if err != nil {
			return err
		}
		files++
		costly := map[string]string{} // local name → import path
		for _, im := range f.Imports {
			path, _ := strconv.Unquote(im.Path.Value)
			if !slices.Contains(costlyAtInit, path) {
				continue
			}
			name := filepath.Base(path)
			if path == "github.com/santhosh-tekuri/jsonschema/v6" {
				name = "jsonschema"
			}
			if im.Name != nil {
				name = im.Name.Name
			}
			costly[name] = path
		}
		for _, decl := range f.Decls {
			switch d := decl.(type) {
			case *ast.FuncDecl:
				if d.Recv == nil && d.Name.Name == "init" {
					t.Errorf("%s: func init runs in every okf process; build what it builds on first use", fset.Position(d.Pos()))
				}
			case *ast.GenDecl:
				if d.Tok != token.VAR {
					continue
				}
				for _, spec := range d.Specs {
					for _, v := range spec.(*ast.ValueSpec).Values {
						ast.Inspect(v, func(n ast.Node) bool {
							switch n := n.(type) {
							case *ast.FuncLit:
								return false // runs when called, not at init (a literal called at once is a CallExpr below)
							case *ast.CallExpr:
								if lit, ok := n.Fun.(*ast.FuncLit); ok {
									ast.Inspect(lit.Body, func(m ast.Node) bool { checkCall(t, fset, costly, m); return true })
								}
								checkCall(t, fset, costly, n)
							}
							return true
						})
					}
				}
			}
		}
		ast.Inspect(f, func(n ast.Node) bool {
			lit, ok := n.(*ast.CompositeLit)
			if !ok {
				return true
			}
			if id, ok := lit.Type.(*ast.Ident); !ok || id.Name != "lazyRegexp" {
				return true
			}
			lazies++
			found := false
			for _, e := range lit.Elts {
				kv, ok := e.(*ast.KeyValueExpr)
				// okf/'s own lazyRegexp has expr; the others' (internal/lazyre) has Expr.
				if !ok || (kv.Key.(*ast.Ident).Name != "expr" && kv.Key.(*ast.Ident).Name != "Expr") {
					continue
				}
				found = true
				expr, ok := constString(kv.Value)
				if !ok {
					t.Errorf("%s: lazyRegexp's expr is not a string constant", fset.Position(kv.Pos()))
				} else if _, err := regexp.Compile(expr); err != nil {
					t.Errorf("%s: %v", fset.Position(kv.Pos()), err)
				}
			}
			if !found {
				t.Errorf("%s: a lazyRegexp without its expression", fset.Position(lit.Pos()))
			}
			return true
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if files < 50 || lazies < 30 {
		t.Fatalf("read %d files and %d lazy regexps: is the walk rooted at the module?", files, lazies)
	}
}

// checkCall fails t when n calls a function of a package in costly.
func checkCall(t *testing.T, fset *token.FileSet, costly map[string]string, n ast.Node) {
	call, ok := n.(*ast.CallExpr)
	if !ok {
		return
	}
	sel, ok := call.Fun.(*ast.SelectorExpr)
	if !ok {
		return
	}
	if id, ok := sel.X.(*ast.Ident); ok && costly[id.Name] != "" {
		t.Errorf("%s: a package-level variable calls %s.%s at init, in every okf process; build it on first use (lazyRegexp, sync.OnceValue)", fset.Position(call.Pos()), costly[id.Name], sel.Sel.Name)
	}
}

// constString evaluates a string literal or a sum of them.
func constString(e ast.Expr) (string, bool) {
	switch e := e.(type) {
	case *ast.BasicLit:
		if e.Kind != token.STRING {
			return "", false
		}
		s, err := strconv.Unquote(e.Value)
		return s, err == nil
	case *ast.BinaryExpr:
		if e.Op != token.ADD {
			return "", false
		}
		a, ok1 := constString(e.X)
		b, ok2 := constString(e.Y)
		return a + b, ok1 && ok2
	case *ast.ParenExpr:
		return constString(e.X)
	}
	return "", false
}

// TestReleaseBinaryLeavesOut checks the release build of okf (with .goreleaser.yaml's tags) links
// no package whose init costs every process for a feature okf does not use: goldmark's extension
// package (its linkify regexps; okf carries the footnote definition parser it needs) and
// blackfriday (urfave/cli's man page generator, left out by urfave_cli_no_docs).
func TestReleaseBinaryLeavesOut(t *testing.T) {
	out := goList(t, "-deps", "-tags", "urfave_cli_no_docs", "./cmd/okf")
	deps := strings.Fields(string(out))
	if len(deps) < 50 {
		t.Fatalf("go list -deps printed %d packages", len(deps))
	}
	for _, d := range deps {
		if d == "github.com/yuin/goldmark/extension" || strings.HasPrefix(d, "github.com/russross/blackfriday") || strings.HasPrefix(d, "github.com/cpuguy83/go-md2man") {
			t.Errorf("the release build of cmd/okf links %s, whose init every okf process pays for", d)
		}
	}
}
