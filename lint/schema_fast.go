package lint

import (
	"encoding/json"
	"math"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/okf-tools/okf/okf"
	"github.com/okf-tools/okf/schemas"
)

// projection builds, from the typed frontmatter the loader kept, the JSON-shaped value of every key
// the built-in concept schema constrains (§4.1, §5, §10). Validating it tells whether the concept is
// clean without re-reading its YAML, which is most of the cost of a schema check; only a concept
// that fails (or whose shape the typed model cannot tell, ok false) is re-read with
// Frontmatter.Node for exact positions. A test checks the two verdicts agree.
//
// Containers are filled only where the schema looks inside them; elsewhere an empty map or list
// stands for a value of that shape, which is all a type check needs.
func projection(f *okf.Frontmatter) (v map[string]any, ok bool) {
	p := projector{ok: true}
	m := make(map[string]any, len(f.Keys))
	for _, k := range f.Keys {
		val := k.Value
		switch k.Name {
		case "tags":
			m[k.Name] = p.list(f.Tags)
		case "sources":
			if f.Sources.Kind != okf.Sequence {
				m[k.Name] = p.value(val)
				continue
			}
			items := make([]any, len(f.Sources.Items))
			for i, s := range f.Sources.Items {
				if s.Kind != okf.Mapping {
					items[i] = p.value(s.Value)
					continue
				}
				e := map[string]any{}
				p.put(e, "id", s.ID)
				p.put(e, "resource", s.Resource)
				p.put(e, "title", s.Title)
				p.put(e, "author", s.Author)
				p.put(e, "usage_count", s.UsageCount)
				p.put(e, "last_modified", s.LastModified.Value)
				if s.UsageWindow != nil {
					e["usage_window"] = p.window(s.UsageWindow)
				}
				items[i] = e
			}
			m[k.Name] = items
		case "usage_window":
			if f.UsageWindow != nil {
				m[k.Name] = p.window(f.UsageWindow)
			} else {
				m[k.Name] = p.value(val)
			}
		case "generated":
			if f.Generated != nil && f.Generated.Kind == okf.Mapping {
				m[k.Name] = p.stamp(*f.Generated)
			} else {
				m[k.Name] = p.value(val)
			}
		case "verified":
			switch f.Verified.Shape {
			case okf.VerifiedMapping:
				m[k.Name] = p.stamp(f.Verified.Entries[0])
			case okf.VerifiedList:
				items := make([]any, len(f.Verified.Entries))
				for i, e := range f.Verified.Entries {
					items[i] = p.stamp(e)
				}
				m[k.Name] = items
			default:
				if val.Kind == okf.Sequence || val.Kind == okf.Mapping {
					// A list with an item that is not a mapping: the typed model dropped the items.
					p.ok = false
				}
				m[k.Name] = p.value(val)
			}
		case "parameters":
			if f.Parameters.Kind != okf.Sequence {
				m[k.Name] = p.value(val)
				continue
			}
			items := make([]any, len(f.Parameters.Items))
			for i, it := range f.Parameters.Items {
				if it.Kind != okf.Mapping {
					items[i] = p.value(it.Value)
					continue
				}
				e := map[string]any{}
				p.put(e, "name", it.Name)
				p.put(e, "type", it.Type)
				p.put(e, "required", it.Required)
				items[i] = e
			}
			m[k.Name] = items
		case "executor":
			if f.Executor != nil && f.Executor.Kind == okf.Mapping {
				e := map[string]any{}
				p.put(e, "resource", f.Executor.Resource)
				if f.Executor.Receipt.Present() {
					e["receipt"] = p.list(f.Executor.Receipt)
				}
				m[k.Name] = e
			} else {
				m[k.Name] = p.value(val)
			}
		case "attester":
			if f.Attester != nil && f.Attester.Kind == okf.Mapping {
				e := map[string]any{}
				p.put(e, "resource", f.Attester.Resource)
				m[k.Name] = e
			} else {
				m[k.Name] = p.value(val)
			}
		default:
			m[k.Name] = p.value(val)
		}
	}
	return m, p.ok
}

type projector struct{ ok bool }

func (p *projector) put(m map[string]any, key string, v okf.Value) {
	if v.Present() {
		m[key] = p.value(v)
	}
}

func (p *projector) list(l okf.List) any {
	if l.Kind != okf.Sequence {
		return p.value(l.Value)
	}
	items := make([]any, len(l.Items))
	for i, it := range l.Items {
		items[i] = p.value(it)
	}
	return items
}

func (p *projector) window(w *okf.Window) any {
	if w.Kind != okf.Mapping {
		return p.value(w.Value)
	}
	e := map[string]any{}
	p.put(e, "from", w.From.Value)
	p.put(e, "to", w.To.Value)
	return e
}

func (p *projector) stamp(s okf.Stamp) any {
	if s.Kind != okf.Mapping {
		return p.value(s.Value)
	}
	e := map[string]any{}
	p.put(e, "by", s.By)
	p.put(e, "at", s.At.Value)
	return e
}

// value converts a scalar as schemas.ValueOf does, and stands for a container by an empty one.
func (p *projector) value(v okf.Value) any {
	switch v.Kind {
	case okf.Mapping:
		return map[string]any{}
	case okf.Sequence:
		return []any{}
	case okf.Null, okf.Absent:
		return nil
	}
	switch v.Tag {
	case "!!null":
		return nil
	case "!!bool":
		switch strings.ToLower(v.Raw) {
		case "true":
			return true
		case "false":
			return false
		}
		p.ok = false
	case "!!int":
		if i, err := strconv.ParseInt(v.Raw, 0, 64); err == nil {
			return json.Number(strconv.FormatInt(i, 10))
		}
		p.ok = false
	case "!!float":
		if f, err := strconv.ParseFloat(v.Raw, 64); err == nil {
			return json.Number(strconv.FormatFloat(f, 'g', -1, 64))
		}
		p.ok = false
	}
	return v.Raw
}

// shapeKey writes the canonical JSON of v with every string reduced to "" or "s", and every
// number to its sign and whether it is whole. The built-in schemas only check types, `minLength: 1`
// and `minimum: 0` (a test keeps it so), so two frontmatters with the same key validate alike, and
// the thousands of concepts of a bundle, which share a handful of shapes, are validated once per
// shape.
func shapeKey(b *strings.Builder, v any) {
	switch x := v.(type) {
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		b.WriteByte('{')
		for i, k := range keys {
			if i > 0 {
				b.WriteByte(',')
			}
			var tmp [64]byte
			b.Write(strconv.AppendQuote(tmp[:0], k))
			b.WriteByte(':')
			shapeKey(b, x[k])
		}
		b.WriteByte('}')
	case []any:
		b.WriteByte('[')
		for i, it := range x {
			if i > 0 {
				b.WriteByte(',')
			}
			shapeKey(b, it)
		}
		b.WriteByte(']')
	case string:
		if x == "" {
			b.WriteString(`""`)
		} else {
			b.WriteString(`"s"`)
		}
	case json.Number:
		f, err := x.Float64()
		sign := "1"
		switch {
		case err != nil:
			sign = "1"
		case f < 0:
			sign = "-1"
		case f == 0:
			sign = "0"
		}
		if err == nil && f != math.Trunc(f) {
			sign += ".5"
		}
		b.WriteString(sign)
	case bool:
		b.WriteString(strconv.FormatBool(x))
	default:
		b.WriteString("null")
	}
}

// shapeCache remembers the verdict of the built-in schema per shape key, for one run.
type shapeCache struct {
	mu   sync.Mutex
	ok   map[string]bool
	errs map[string]error // base.Check's error tree by shape (check)
}

func newShapeCache() *shapeCache {
	return &shapeCache{ok: map[string]bool{}, errs: map[string]error{}}
}

// maxShapeErrors bounds the error trees a shapeCache keeps: a bundle has a handful of shapes, a
// hostile one may have a new shape per file.
const maxShapeErrors = 1024

// check is base.Check remembered by shape, for Schema.ValidateWith: two values of the same shape
// get the same error tree from the built-in schema (the reasoning of shapeKey), except where a
// number is negative, since a `minimum` error quotes the number itself.
func (c *shapeCache) check(base *schemas.Schema) func(v any) error {
	return func(v any) error {
		if hasNegative(v) {
			return base.Check(v)
		}
		var b strings.Builder
		shapeKey(&b, v)
		key := b.String()
		c.mu.Lock()
		err, seen := c.errs[key]
		c.mu.Unlock()
		if seen {
			return err
		}
		err = base.Check(v)
		c.mu.Lock()
		if len(c.errs) < maxShapeErrors {
			c.errs[key] = err
		}
		c.mu.Unlock()
		return err
	}
}

// hasNegative reports whether a number below zero is anywhere in v.
func hasNegative(v any) bool {
	switch x := v.(type) {
	case map[string]any:
		for _, c := range x {
			if hasNegative(c) {
				return true
			}
		}
	case []any:
		for _, c := range x {
			if hasNegative(c) {
				return true
			}
		}
	case json.Number:
		f, err := x.Float64()
		return err != nil || f < 0
	}
	return false
}

// valid reports whether the projection v passes the built-in schema, validating a shape only the
// first time it is seen.
func (c *shapeCache) valid(base *schemas.Schema, v map[string]any) bool {
	var b strings.Builder
	shapeKey(&b, v)
	key := b.String()
	c.mu.Lock()
	ok, seen := c.ok[key]
	c.mu.Unlock()
	if seen {
		return ok
	}
	ok = base.Valid(v)
	c.mu.Lock()
	c.ok[key] = ok
	c.mu.Unlock()
	return ok
}
