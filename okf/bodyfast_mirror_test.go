package okf

import (
	"reflect"
	"slices"
	"testing"

	"github.com/okf-tools/okf/okf/internal/fastmd"
)

// mirrors pairs each model type the fast path fills with fastmd's type that mirrors it.
var mirrors = []struct{ model, fast reflect.Type }{
	{reflect.TypeFor[Link](), reflect.TypeFor[fastmd.Link]()},
	{reflect.TypeFor[Heading](), reflect.TypeFor[fastmd.Heading]()},
	{reflect.TypeFor[CodeBlock](), reflect.TypeFor[fastmd.CodeBlock]()},
	{reflect.TypeFor[Citation](), reflect.TypeFor[fastmd.Citation]()},
	{reflect.TypeFor[Comment](), reflect.TypeFor[fastmd.Comment]()},
	{reflect.TypeFor[IndexSection](), reflect.TypeFor[fastmd.IndexSection]()},
	{reflect.TypeFor[IndexEntry](), reflect.TypeFor[fastmd.IndexEntry]()},
}

// TestFastmdMirrors: fastmd's types mirror the model's field for field (the same names, in the
// same order, of the same types, a Position being fastmd's Pos and a list of a model type a list
// of its mirror), so that a field added to one and not the other fails here rather than being
// dropped by fastRead's copy. Each Body list fastmd fills is a Result list of the same name too.
func TestFastmdMirrors(t *testing.T) {
	if msg := mirrorDrift(mirrors); msg != "" {
		t.Error(msg)
	}
	// Position is fastmd's Pos and the path.
	pos := reflect.TypeFor[Position]()
	if msg := mirrorDrift([]struct{ model, fast reflect.Type }{{pos, reflect.TypeFor[fastmd.Pos]()}}, "Path"); msg != "" {
		t.Error(msg)
	}
	if commentRE.expr != fastmd.CommentExpr {
		t.Errorf("okf reads comments with %q, fastmd with %q", commentRE.expr, fastmd.CommentExpr)
	}
	body, res := reflect.TypeFor[Body](), reflect.TypeFor[fastmd.Result]()
	for i := range body.NumField() {
		f := body.Field(i)
		if f.Name == "FootnoteRefs" || f.Name == "FootnoteDefs" {
			continue // okf's own scan, run on both readings
		}
		g, ok := res.FieldByName(f.Name)
		if !ok {
			t.Errorf("fastmd.Result has no %s: Body's %s is read by the fast path too", f.Name, f.Name)
			continue
		}
		if !mirrored(f.Type, g.Type) {
			t.Errorf("Body.%s is %s but fastmd.Result.%s is %s", f.Name, f.Type, g.Name, g.Type)
		}
	}
}

// TestFastmdMirrorsDrift: the comparison sees a field added, renamed, retyped or moved.
func TestFastmdMirrorsDrift(t *testing.T) {
	type link struct { // Link with a field more
		Target string
		Text   string
		Image  bool
		Pos    Position
		Title  string
	}
	type renamed struct {
		Target string
		Label  string
		Image  bool
		Pos    Position
	}
	type retyped struct {
		Target string
		Text   []byte
		Image  bool
		Pos    Position
	}
	type moved struct {
		Text   string
		Target string
		Image  bool
		Pos    Position
	}
	for _, model := range []reflect.Type{reflect.TypeFor[link](), reflect.TypeFor[renamed](), reflect.TypeFor[retyped](), reflect.TypeFor[moved]()} {
		if mirrorDrift([]struct{ model, fast reflect.Type }{{model, reflect.TypeFor[fastmd.Link]()}}) == "" {
			t.Errorf("%v is taken as mirrored by fastmd.Link", model)
		}
	}
}

// mirrorDrift says how the pairs' fields differ, or "" when each fast type mirrors its model type
// (but for the model's fields named in skip).
func mirrorDrift(pairs []struct{ model, fast reflect.Type }, skip ...string) string {
	for _, p := range pairs {
		var names []string
		var types []reflect.Type
		for i := range p.model.NumField() {
			if f := p.model.Field(i); !slices.Contains(skip, f.Name) {
				names, types = append(names, f.Name), append(types, f.Type)
			}
		}
		if len(names) != p.fast.NumField() {
			return p.model.String() + " and " + p.fast.String() + " have not the same fields"
		}
		for i, name := range names {
			g := p.fast.Field(i)
			if g.Name != name || !mirrored(types[i], g.Type) {
				return p.model.String() + "." + name + " (" + types[i].String() + ") is " + p.fast.String() + "." + g.Name + " (" + g.Type.String() + ")"
			}
		}
	}
	return ""
}

// mirrored reports whether fastmd's field type f stands for the model's field type m.
func mirrored(m, f reflect.Type) bool {
	if m == reflect.TypeFor[Position]() {
		return f == reflect.TypeFor[fastmd.Pos]()
	}
	if m.Kind() == reflect.Slice && f.Kind() == reflect.Slice {
		for _, p := range mirrors {
			if m.Elem() == p.model {
				return f.Elem() == p.fast
			}
		}
	}
	return m == f
}
