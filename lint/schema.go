package lint

import (
	"fmt"
	"sync"

	"github.com/okf-tools/okf/okf"
	"github.com/okf-tools/okf/schemas"
)

// compileSchemas compiles the schema files .okf.yaml maps types to. A file that cannot be used is a
// finding at its mapping in the configuration, and that type is then checked by the built-in
// schema only.
func compileSchemas(b *okf.Bundle, cfg *Config) (map[string]*schemas.Schema, []okf.Diagnostic) {
	out := map[string]*schemas.Schema{}
	var ds []okf.Diagnostic
	for _, t := range cfg.SchemaTypes() {
		ref := cfg.Schemas[t]
		report := func(format string, args ...any) {
			ds = append(ds, okf.Diagnostic{Pos: ref.Pos, Code: codeSchemaUnusable, Severity: okf.Warning,
				Message: fmt.Sprintf("schema for type %q: ", t) + fmt.Sprintf(format, args...)})
		}
		src, err := b.ReadFile(ref.Path)
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

// checkSchemas validates every conformant concept's frontmatter against the concept schema and its
// type's own schema, spread over the pass's workers. Non-conformant concepts are left to the
// conformance rules (their frontmatter is unreadable or has no type).
func checkSchemas(p *Pass) {
	base, err := schemas.Concept()
	if err != nil {
		// The embedded schemas are compiled by a test (schemas.TestEmbeddedSchemasCompile).
		return
	}
	typed, _ := compileSchemas(p.Bundle, p.cfg)
	cs := p.Bundle.Concepts
	workers := max(p.workers, 1)
	results := make([][]okf.Diagnostic, len(cs))
	cache := &shapeCache{ok: map[string]bool{}}
	var wg sync.WaitGroup
	next := make(chan int, workers)
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				results[i] = checkConcept(cs[i], base, typed, cache)
			}
		}()
	}
	for i := range cs {
		next <- i
	}
	close(next)
	wg.Wait()
	for _, r := range results {
		for _, d := range r {
			p.Report(d)
		}
	}
}

func checkConcept(c *okf.Concept, base *schemas.Schema, typed map[string]*schemas.Schema, cache *shapeCache) []okf.Diagnostic {
	if !c.Conformant() {
		return nil
	}
	own := typed[c.Frontmatter.Type.Text()]
	if own == nil {
		if v, ok := projection(c.Frontmatter); ok && cache.valid(base, v) {
			return nil
		}
	}
	n, err := c.Frontmatter.Node()
	if err != nil {
		return nil
	}
	var out []okf.Diagnostic
	// A bundle schema that $refs the built-in one repeats its violations: say each once.
	said := map[schemas.Violation]bool{}
	add := func(vs []schemas.Violation, prefix string) {
		for _, v := range vs {
			if said[v] {
				continue
			}
			said[v] = true
			d := okf.Diagnostic{Pos: okf.Position{Path: c.Path, Line: v.Line, Col: v.Col}, Code: codeSchemaMismatch, Severity: okf.Warning}
			if v.EndLine > 0 {
				d.End = okf.Position{Path: c.Path, Line: v.EndLine, Col: v.EndCol}
			}
			where := v.Path
			if where == "" {
				where = "frontmatter"
			}
			d.Message = fmt.Sprintf("%s%s: %s", prefix, where, v.Message)
			out = append(out, d)
		}
	}
	add(base.Validate(n), "")
	if s := own; s != nil {
		add(s.Validate(n), fmt.Sprintf("schema of type %q: ", c.Frontmatter.Type.Text()))
	}
	return out
}
