package lint

import (
	"fmt"
	"io/fs"
	"slices"
	"sync"

	"github.com/okf-tools/okf/okf"
	"github.com/okf-tools/okf/schemas"
	"go.yaml.in/yaml/v3"
)

// compileSchemas compiles the schema files .okf.yaml maps types to, read with read (a bundle's
// ReadFile). A file that cannot be used is a finding at its mapping in the configuration, and that
// type is then checked by the built-in schema only.
func compileSchemas(read func(string) ([]byte, error), cfg *Config) (map[string]*schemas.Schema, []okf.Diagnostic) {
	out := map[string]*schemas.Schema{}
	var ds []okf.Diagnostic
	for _, t := range cfg.SchemaTypes() {
		ref := cfg.Schemas[t]
		report := func(format string, args ...any) {
			ds = append(ds, okf.Diagnostic{Pos: ref.Pos, Code: codeSchemaUnusable, Severity: okf.Warning,
				Message: fmt.Sprintf("schema for type %q: ", t) + fmt.Sprintf(format, args...)})
		}
		src, err := read(ref.Path)
		if err != nil {
			report("cannot read %q in the bundle", ref.Path)
			continue
		}
		s, err := schemas.Compile(ref.Path, src)
		if err != nil {
			report("%v", err)
			continue
		}
		out[t] = s
	}
	return out, ds
}

// SchemaCheck runs the schema check (schema-mismatch) on each concept while the loader holds its
// parsed frontmatter, so that no frontmatter is parsed twice: pass its OnFrontmatter as
// okf.LoadOptions.OnFrontmatter and the SchemaCheck itself as Options.Schemas, with the same
// configuration as Options.Config. A concept it did not see (a bundle loaded without the hook) is
// checked by the rule as before, from Frontmatter.Node.
type SchemaCheck struct {
	base  *schemas.Schema
	typed map[string]*schemas.Schema
	cache *shapeCache
	mu    sync.Mutex
	found map[*okf.Concept][]okf.Diagnostic
}

// NewSchemaCheck prepares the schema check of a bundle whose files fsys reads (the FS given to
// okf.Load or the FileSystem given to okf.LoadFileSystem, with the same size limit) under the
// configuration cfg (nil: none). It returns nil when the configuration turns the check off, and a
// nil *SchemaCheck checks nothing.
func NewSchemaCheck(fsys fs.FS, cfg *Config) *SchemaCheck {
	if !cfg.mayRun(SchemaMismatch) {
		return nil
	}
	base, err := schemas.Concept()
	if err != nil {
		return nil
	}
	// The schema files are read as the loaded bundle's ReadFile will: through a FileSystem on fsys.
	typed, _ := compileSchemas((&okf.Bundle{FS: okf.NewFileSystem(fsys, 0)}).ReadFile, cfg)
	return &SchemaCheck{base: base, typed: typed, cache: newShapeCache(), found: map[*okf.Concept][]okf.Diagnostic{}}
}

// OnFrontmatter checks one concept from its parsed frontmatter; the loader's workers call it
// concurrently.
func (s *SchemaCheck) OnFrontmatter(c *okf.Concept, top *yaml.Node) {
	if s == nil {
		return
	}
	ds := checkConcept(c, s.base, s.typed, s.cache, func() (*yaml.Node, error) { return top, nil })
	s.mu.Lock()
	s.found[c] = ds
	s.mu.Unlock()
}

// of returns the findings of a concept the check saw while loading.
func (s *SchemaCheck) of(c *okf.Concept) ([]okf.Diagnostic, bool) {
	if s == nil {
		return nil, false
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	ds, ok := s.found[c]
	return ds, ok
}

// forget drops what the check found on c once a Stream's per-concept run has reported it: the map
// would otherwise hold every concept's schema findings to the end of the run, twice.
func (s *SchemaCheck) forget(c *okf.Concept) {
	if s == nil {
		return
	}
	s.mu.Lock()
	delete(s.found, c)
	s.mu.Unlock()
}

// schemaFallback is what the schema check needs for the concepts the load's SchemaCheck did not
// see: the configured schemas, compiled once per run. A Stream checks one concept at a time, and
// without it compiled them (reading each schema file) once per concept.
type schemaFallback struct {
	once  sync.Once
	typed map[string]*schemas.Schema
	cache *shapeCache
}

// get compiles the schemas on first use, reading them through p's bundle (which reads the same
// files for every concept of a Stream).
func (f *schemaFallback) get(p *Pass) (map[string]*schemas.Schema, *shapeCache) {
	f.once.Do(func() {
		f.typed, _ = compileSchemas(p.Bundle.ReadFile, p.cfg)
		f.cache = newShapeCache()
	})
	return f.typed, f.cache
}

// checkSchemas validates every conformant concept's frontmatter against the concept schema and its
// type's own schema, spread over the pass's workers, except those the load's SchemaCheck
// (Pass.schemas) already checked. Non-conformant concepts are left to the conformance rules (their
// frontmatter is unreadable or has no type).
func checkSchemas(p *Pass) {
	base, err := schemas.Concept()
	if err != nil {
		// The embedded schemas are compiled by a test (schemas.TestEmbeddedSchemasCompile).
		return
	}
	cs := p.Bundle.Concepts
	results := make([][]okf.Diagnostic, len(cs))
	var left []int // the concepts the loader's SchemaCheck did not see
	for i, c := range cs {
		if ds, ok := p.schemas.of(c); ok {
			results[i] = ds
		} else if c.Conformant() { // checkConcept finds nothing in the others
			left = append(left, i)
		}
	}
	if len(left) > 0 {
		if p.fallback == nil {
			p.fallback = &schemaFallback{}
		}
		typed, cache := p.fallback.get(p)
		workers := min(max(p.workers, 1), len(left))
		var wg sync.WaitGroup
		next := make(chan int, workers)
		for range workers {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for i := range next {
					c := cs[i]
					results[i] = checkConcept(c, base, typed, cache, c.Frontmatter.Node)
				}
			}()
		}
		for _, i := range left {
			next <- i
		}
		close(next)
		wg.Wait()
	}
	for _, r := range results {
		for _, d := range r {
			p.Report(d)
		}
	}
}

// checkConcept validates one concept, reading its frontmatter's YAML tree with node only when the
// typed model cannot settle it.
func checkConcept(c *okf.Concept, base *schemas.Schema, typed map[string]*schemas.Schema, cache *shapeCache, node func() (*yaml.Node, error)) []okf.Diagnostic {
	if !c.Conformant() {
		return nil
	}
	own := typed[c.Frontmatter.Type.Text()]
	// The plan of the built-in schema's error tree, from the projection when the typed model can
	// build it (the tree is the same as for the YAML's value, by shape:
	// TestShapeCacheProjectionMatchesValidate), remembered by shape with the tree; known is false
	// when it must come from the YAML.
	var plan *schemas.Plan
	known := false
	if p, ok := cache.planOf(base, c.Frontmatter); ok {
		plan, known = p, true
		if plan == nil && own == nil {
			return nil
		}
	}
	n, err := node()
	if err != nil {
		return nil
	}
	var out []okf.Diagnostic
	// A bundle schema that $refs the built-in one repeats its violations: say each once. The few
	// violations of a concept are looked up in a list; a map takes over past a handful.
	var list []schemas.Violation
	var said map[schemas.Violation]bool
	add := func(vs []schemas.Violation, prefix string) {
		for _, v := range vs {
			if said != nil {
				if said[v] {
					continue
				}
				said[v] = true
			} else {
				if slices.Contains(list, v) {
					continue
				}
				list = append(list, v)
				if len(list) > 16 {
					said = make(map[schemas.Violation]bool, 2*len(list))
					for _, v := range list {
						said[v] = true
					}
				}
			}
			d := okf.Diagnostic{Pos: okf.Position{Path: c.Path, Line: int32(v.Line), Col: int32(v.Col)}, Code: codeSchemaMismatch, Severity: okf.Warning}
			if v.EndLine > 0 {
				d.End = okf.Position{Path: c.Path, Line: int32(v.EndLine), Col: int32(v.EndCol)}
			}
			where := v.Path
			if where == "" {
				where = "frontmatter"
			}
			d.Message = cache.message(prefix, where, v.Message)
			out = append(out, d)
		}
	}
	if known {
		add(plan.Violations(n), "")
	} else {
		add(base.ValidateWith(n, cache.check(base)), "")
	}
	if s := own; s != nil {
		prefix := fmt.Sprintf("schema of type %q: ", c.Frontmatter.Type.Text())
		vs, err := s.ValidateLimited(n)
		if err != nil {
			// The bundle's schema would take more than schemas.MaxWork on this frontmatter: it is
			// not run, and the concept is checked by the built-in schema only (OKF906).
			out = append(out, okf.Diagnostic{Pos: okf.Position{Path: c.Path, Line: int32(n.Line), Col: int32(n.Column)},
				Code: codeSchemaUnusable, Severity: okf.Warning, Message: prefix + err.Error()})
		}
		add(vs, prefix)
	}
	return out
}
