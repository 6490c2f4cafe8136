// Package schemas holds the JSON Schemas (draft 2020-12) of an OKF v0.2 concept's frontmatter and of
// each family (§4.1, §5, §10), embedded so that `okf schema` can print them for editors, and validates
// frontmatter against them with every error mapped back to the line and column of the offending YAML
// value. It is a leaf: data and validation only, no lint policy.
package schemas

import (
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"sync"

	"github.com/okf-tools/okf/okf"
	"github.com/santhosh-tekuri/jsonschema/v6"
	"go.yaml.in/yaml/v3"
)

//go:embed *.schema.json
var files embed.FS

// BaseURL is the prefix of every embedded schema's $id. A bundle's own schema can `$ref` an embedded
// one by its full $id ("…/trust.schema.json").
const BaseURL = "https://raw.githubusercontent.com/okf-tools/okf/main/schemas/"

// Names lists the embedded schemas: "concept" first, then the families alphabetically, then
// "config", the schema of okf lint's .okf.yaml for editors.
func Names() []string {
	return []string{"concept", "computation", "lifecycle", "provenance", "trust", "config"}
}

// Families lists the schemas the concept schema is made of: "concept" and the families.
func Families() []string { return Names()[:5] }

// Text returns the embedded schema called name ("concept", "trust", …) as written.
func Text(name string) ([]byte, bool) {
	b, err := files.ReadFile(name + ".schema.json")
	if err != nil {
		return nil, false
	}
	return b, true
}

// Schema is a compiled schema, safe for concurrent use.
type Schema struct {
	s *jsonschema.Schema
	// name and graph are set for a bundle's schema (Compile), whose checks are bounded (MaxWork).
	name  string
	graph *graph
}

var (
	conceptOnce sync.Once
	concept     *Schema
	conceptErr  error
)

// Concept returns the compiled concept frontmatter schema. It is compiled once; an error here is a
// bug in the embedded files, which a test guards against.
func Concept() (*Schema, error) {
	conceptOnce.Do(func() {
		c := newCompiler()
		var s *jsonschema.Schema
		s, conceptErr = c.Compile(BaseURL + "concept.schema.json")
		if conceptErr == nil {
			concept = &Schema{s: s}
		}
	})
	return concept, conceptErr
}

// newCompiler returns a compiler that knows every embedded schema and fetches nothing: a schema may
// only refer to the embedded ones and to itself, so validation never touches the network or disk.
func newCompiler() *jsonschema.Compiler {
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	c.UseLoader(jsonschema.SchemeURLLoader{})
	for _, n := range Names() {
		b, _ := Text(n)
		doc, err := jsonschema.UnmarshalJSON(strings.NewReader(string(b)))
		if err != nil {
			panic(fmt.Sprintf("schemas: embedded %s.schema.json: %v", n, err))
		}
		if err := c.AddResource(BaseURL+n+".schema.json", doc); err != nil {
			panic(fmt.Sprintf("schemas: embedded %s.schema.json: %v", n, err))
		}
	}
	return c
}

// Compile compiles a schema a bundle supplies (JSON, or YAML when name ends in .yaml or .yml). name
// identifies it in errors and as its base URL; it may `$ref` the embedded schemas by their $id.
// The schema is hostile input: one too large or too deep (MaxSchemaNodes, MaxSchemaDepth), with
// numbers out of range, or with a cycle of subschemas that never looks inside the value is an
// error, and every check against it is bounded by MaxWork (ValidateLimited).
func Compile(name string, text []byte) (*Schema, error) {
	var doc any
	if strings.HasSuffix(name, ".yaml") || strings.HasSuffix(name, ".yml") {
		var n yaml.Node
		if err := yaml.Unmarshal(text, &n); err != nil {
			return nil, fmt.Errorf("cannot read %q as YAML: %v", name, err)
		}
		if err := okf.CheckYAMLAliases(&n); err != nil {
			return nil, fmt.Errorf("cannot read %q as YAML: %v", name, err)
		}
		doc = ValueOf(&n)
	} else {
		var err error
		doc, err = jsonschema.UnmarshalJSON(strings.NewReader(string(text)))
		if err != nil {
			return nil, fmt.Errorf("cannot read %q as JSON: %v", name, err)
		}
	}
	if err := checkDocument(name, doc); err != nil {
		return nil, err
	}
	c := newCompiler()
	url := "okf-bundle:///" + strings.TrimPrefix(name, "/")
	if err := c.AddResource(url, doc); err != nil {
		return nil, fmt.Errorf("%q is not a JSON Schema: %v", name, err)
	}
	s, err := c.Compile(url)
	if err != nil {
		return nil, fmt.Errorf("%q is not a usable JSON Schema: %s", name, compileError(err))
	}
	g, err := newGraph(s)
	if err != nil {
		return nil, fmt.Errorf("%q is not a usable JSON Schema: %v", name, err)
	}
	return &Schema{s: s, name: name, graph: g}, nil
}

// ValueOf builds the JSON-shaped value of a YAML node: mappings become map[string]any, sequences
// []any, and scalars follow their resolved YAML tag. It never decodes into `any` through yaml.v3, so a
// timestamp stays the string that was written (D3) and `2026-06-01` is not turned into a time.Time.
//
// Bound: values reached through aliases count against okf.MaxAliasExpansion; past it an alias
// stands for null, so a node that okf.CheckYAMLAliases did not vet still cannot expand without end.
func ValueOf(n *yaml.Node) any {
	budget := okf.MaxAliasExpansion
	return (&projector{budget: &budget}).valueOf(n, 0, false)
}

type projector struct{ budget *int }

func (p *projector) valueOf(n *yaml.Node, depth int, aliased bool) any {
	if n == nil || depth > 64 {
		return nil
	}
	if aliased {
		if *p.budget <= 0 {
			return nil
		}
		*p.budget--
	}
	switch n.Kind {
	case yaml.DocumentNode:
		if len(n.Content) == 0 {
			return nil
		}
		return p.valueOf(n.Content[0], depth+1, aliased)
	case yaml.AliasNode:
		return p.valueOf(n.Alias, depth+1, true)
	case yaml.MappingNode:
		m := make(map[string]any, len(n.Content)/2)
		for i := 0; i+1 < len(n.Content); i += 2 {
			m[keyText(n.Content[i])] = p.valueOf(n.Content[i+1], depth+1, aliased)
		}
		return m
	case yaml.SequenceNode:
		a := make([]any, len(n.Content))
		for i, c := range n.Content {
			a[i] = p.valueOf(c, depth+1, aliased)
		}
		return a
	case yaml.ScalarNode:
		return scalarOf(n)
	}
	return nil
}

// keyText is the text a mapping key stands for: its scalar text, or its YAML form when it is not a
// scalar (a rare complex key still gets a distinct name).
func keyText(k *yaml.Node) string {
	if k.Kind == yaml.ScalarNode {
		return k.Value
	}
	b, _ := yaml.Marshal(k)
	return strings.TrimSpace(string(b))
}

func scalarOf(n *yaml.Node) any {
	switch n.ShortTag() {
	case "!!null":
		return nil
	case "!!bool":
		var b bool
		if n.Decode(&b) == nil {
			return b
		}
	case "!!int":
		var i int64
		if n.Decode(&i) == nil {
			return json.Number(strconv.FormatInt(i, 10))
		}
		var u uint64
		if n.Decode(&u) == nil {
			return json.Number(strconv.FormatUint(u, 10))
		}
	case "!!float":
		var f float64
		if n.Decode(&f) == nil && !math.IsInf(f, 0) && !math.IsNaN(f) {
			return json.Number(strconv.FormatFloat(f, 'g', -1, 64))
		}
	}
	// !!str, !!timestamp (kept as written, D3), !!binary, custom tags, and anything that did not decode.
	return n.Value
}

// Violation is one schema error at the YAML value it concerns.
type Violation struct {
	// Line and Col locate the offending value (1-based, columns in characters as yaml.v3 counts them).
	Line, Col int
	// EndLine and EndCol are just after a one-line scalar value (zero when unknown).
	EndLine, EndCol int
	// Path is where the value sits in the frontmatter: "sources[0].usage_count" ("" for the whole).
	Path string
	// Message says what was expected, without the path.
	Message string
}

// Valid reports whether a JSON-shaped value (as ValueOf builds) passes the schema, without mapping
// errors to positions: the cheap first check of a concept that is most likely clean.
// A bundle's schema that would take more than MaxWork steps is not valid.
func (s *Schema) Valid(v any) bool { return s.Check(v) == nil }

// Validate checks the frontmatter mapping n (as okf.Frontmatter.Node returns it) and returns the
// violations sorted by position. Only the most specific errors are kept: the ones at the leaves of
// the validator's error tree.
func (s *Schema) Validate(n *yaml.Node) []Violation {
	return s.ValidateWith(n, s.Check)
}

// Check validates a JSON-shaped value (as ValueOf makes) and returns the validator's error tree, or
// nil when the value is valid. For a bundle's schema, a check that would take more than MaxWork
// steps is not run: Check returns a *WorkError.
func (s *Schema) Check(v any) error {
	if err := s.affordable(v); err != nil {
		return err
	}
	return s.s.Validate(v)
}

// ValidateWith is Validate with the value checked by check instead of s.Check: a caller that knows
// two values get the same error tree (lint, for the built-in schemas, by the values' shape) may
// hand back one it remembers. The violations' positions and messages are read from n.
func (s *Schema) ValidateWith(n *yaml.Node, check func(v any) error) []Violation {
	return s.ViolationsOf(n, check(ValueOf(n)))
}

// ViolationsOf maps err, the error tree Check gave for the value of n (or for a value a caller
// knows gets the same tree), to violations sorted by position, read from n. A nil err has none.
func (s *Schema) ViolationsOf(n *yaml.Node, err error) []Violation {
	return PlanOf(err).Violations(n)
}

// compileError words a compile error on one line: for a schema that breaks the metaschema, the
// most specific problems with where they are ("at /type: got number, want array").
func compileError(err error) string {
	var sve *jsonschema.SchemaValidationError
	if errors.As(err, &sve) {
		var ve *jsonschema.ValidationError
		if errors.As(sve.Err, &ve) {
			var parts []string
			var walk func(e *jsonschema.ValidationError)
			walk = func(e *jsonschema.ValidationError) {
				if len(e.Causes) == 0 {
					parts = append(parts, fmt.Sprintf("at /%s: %s", strings.Join(e.InstanceLocation, "/"), e.ErrorKind.LocalizedString(printer)))
				}
				for _, c := range e.Causes {
					walk(c)
				}
			}
			walk(ve)
			return strings.Join(parts, "; ")
		}
	}
	return strings.Join(strings.Fields(err.Error()), " ")
}
