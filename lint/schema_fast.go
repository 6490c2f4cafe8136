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
//
// A frontmatter that may use merge keys is not projected (ok false): the typed model holds the keys
// a `<<` brings in (D3), which the exact check, on the YAML's own mappings, does not see.
func projection(f *okf.Frontmatter) (v map[string]any, ok bool) {
	p := projector{ok: true}
	m := projectionMaps.Get().(map[string]any)
	if f.MayMerge() {
		return m, false
	}
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
			if f.UsageWindow() != nil {
				m[k.Name] = p.window(f.UsageWindow())
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
			if f.Parameters().Kind != okf.Sequence {
				m[k.Name] = p.value(val)
				continue
			}
			items := make([]any, len(f.Parameters().Items))
			for i, it := range f.Parameters().Items {
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
			if f.Executor() != nil && f.Executor().Kind == okf.Mapping {
				e := map[string]any{}
				p.put(e, "resource", f.Executor().Resource)
				if f.Executor().Receipt.Present() {
					e["receipt"] = p.list(f.Executor().Receipt)
				}
				m[k.Name] = e
			} else {
				m[k.Name] = p.value(val)
			}
		case "attester":
			if f.Attester() != nil && f.Attester().Kind == okf.Mapping {
				e := map[string]any{}
				p.put(e, "resource", f.Attester().Resource)
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

// projectionMaps holds the top-level maps of projections done with (releaseProjection): one per
// concept was most of what the schema check allocated.
var projectionMaps = sync.Pool{New: func() any { return map[string]any{} }}

// releaseProjection hands v, a projection nothing refers to any more, back for the next one. A
// validation error does not refer to the value validated (it holds locations and kinds), so v may
// go back once its verdict is known. A map grown by a frontmatter of many keys is left to the
// collector.
func releaseProjection(v map[string]any) {
	if len(v) > 64 {
		return
	}
	clear(v)
	projectionMaps.Put(v)
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

// appendShape appends the canonical JSON of v with every string reduced to "" or "s", and every
// number to its sign and whether it is whole: v's shape key. The built-in schemas only check types,
// `minLength: 1` and `minimum: 0` (a test keeps it so), so two frontmatters with the same key get
// the same error tree, and the thousands of concepts of a bundle, which share a handful of shapes,
// are validated once per shape.
func appendShape(b []byte, v any) []byte {
	switch x := v.(type) {
	case map[string]any:
		var arr [32]string
		keys := arr[:0]
		for k := range x {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		b = append(b, '{')
		for i, k := range keys {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendQuoted(b, k)
			b = append(b, ':')
			b = appendShape(b, x[k])
		}
		b = append(b, '}')
	case []any:
		b = append(b, '[')
		for i, it := range x {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendShape(b, it)
		}
		b = append(b, ']')
	case string:
		if x == "" {
			b = append(b, `""`...)
		} else {
			b = append(b, `"s"`...)
		}
	case json.Number:
		f, err := x.Float64()
		switch {
		case err != nil:
			b = append(b, '1')
		case f < 0:
			b = append(b, "-1"...)
		case f == 0:
			b = append(b, '0')
		default:
			b = append(b, '1')
		}
		if err == nil && f != math.Trunc(f) {
			b = append(b, ".5"...)
		}
	case bool:
		b = strconv.AppendBool(b, x)
	default:
		b = append(b, "null"...)
	}
	return b
}

// appendQuoted appends k as strconv.AppendQuote does, without its rune-by-rune walk when k is
// printable ASCII with nothing to escape (every key a real bundle uses).
func appendQuoted(b []byte, k string) []byte {
	for i := 0; i < len(k); i++ {
		if c := k[i]; c < 0x20 || c >= 0x7f || c == '"' || c == '\\' {
			return strconv.AppendQuote(b, k)
		}
	}
	b = append(b, '"')
	b = append(b, k...)
	return append(b, '"')
}

// shapeCache remembers the built-in schema's error tree (nil: valid) per shape key, for one run,
// with the violations' plan read from it (schemas.PlanOf). The values it is asked about are either
// ValueOf a frontmatter or the projection of one; both reduce to the same key only when they have
// the same shape, so one map serves both.
type shapeCache struct {
	mu   sync.Mutex
	errs map[string]shapeVerdict
	msgs map[findingWords]string
}

// shapeVerdict is what a shapeCache remembers of one shape.
type shapeVerdict struct {
	err  error
	plan *schemas.Plan
}

func newShapeCache() *shapeCache {
	return &shapeCache{errs: map[string]shapeVerdict{}, msgs: map[findingWords]string{}}
}

// findingWords are the parts of a schema finding's message (checkConcept).
type findingWords struct{ prefix, where, message string }

// maxMessages bounds the messages a shapeCache keeps, and maxWords the length of one.
const (
	maxMessages = 4096
	maxWords    = 1 << 10
)

// message is prefix + where + ": " + message, one string for every finding that says it: on a
// bundle failing the schema the same way in every file, each file's finding would otherwise make
// its own copy.
func (c *shapeCache) message(prefix, where, message string) string {
	w := findingWords{prefix, where, message}
	c.mu.Lock()
	m, ok := c.msgs[w]
	c.mu.Unlock()
	if ok {
		return m
	}
	m = prefix + where + ": " + message
	if len(m) <= maxWords {
		c.mu.Lock()
		if len(c.msgs) < maxMessages {
			c.msgs[w] = m
		}
		c.mu.Unlock()
	}
	return m
}

// maxShapes bounds the verdicts a shapeCache keeps: a bundle has a handful of shapes, a hostile one
// may have a new shape per file, and past the bound each is validated afresh.
const maxShapes = 4096

// verdict is base.Check(v) remembered by shape: two values of the same shape get the same error
// tree from the built-in schema (the reasoning of appendShape), except where a number is negative,
// since a `minimum` error quotes the number itself: such a value is always checked afresh.
func (c *shapeCache) verdict(base *schemas.Schema, v any) error {
	return c.verdictPlan(base, v).err
}

func (c *shapeCache) verdictPlan(base *schemas.Schema, v any) shapeVerdict {
	if hasNegative(v) {
		err := base.Check(v)
		return shapeVerdict{err, schemas.PlanOf(err)}
	}
	var arr [512]byte
	key := appendShape(arr[:0], v)
	c.mu.Lock()
	sv, seen := c.errs[string(key)]
	c.mu.Unlock()
	if seen {
		return sv
	}
	err := base.Check(v)
	sv = shapeVerdict{err, schemas.PlanOf(err)}
	c.remember(key, sv)
	return sv
}

// maxShapeKey is the longest shape key a shapeCache remembers, in bytes: a frontmatter of
// thousands of keys makes a key as long, and 4096 of them would hold as many frontmatters.
const maxShapeKey = 4 << 10

// planOf is the plan of verdict(base, projection(f)) (nil: valid), ok false where the projection
// is not usable, remembered by f's projection key (appendProjectionKey): a shape seen before costs
// the key and one lookup, without building the projection. The projection keys start with 'k',
// which no JSON value does, so they share the map with appendShape's.
func (c *shapeCache) planOf(base *schemas.Schema, f *okf.Frontmatter) (*schemas.Plan, bool) {
	buf := keyBufs.Get().(*[]byte)
	defer keyBufs.Put(buf)
	key, afresh, ok := appendProjectionKey(append((*buf)[:0], 'k'), f)
	if cap(key) <= maxShapeKey {
		*buf = key
	}
	if !ok {
		return nil, false
	}
	if !afresh {
		c.mu.Lock()
		sv, seen := c.errs[string(key)]
		c.mu.Unlock()
		if seen {
			return sv.plan, true
		}
	}
	v, ok := projection(f)
	if !ok {
		releaseProjection(v)
		return nil, false
	}
	sv := c.verdictPlan(base, v)
	releaseProjection(v)
	if !afresh {
		c.remember(key, sv)
	}
	return sv.plan, true
}

// keyBufs holds the buffers projection keys are written in: the shaper writes through a pointer,
// so a buffer on the stack would move to the heap, once per concept.
var keyBufs = sync.Pool{New: func() any { b := make([]byte, 0, 512); return &b }}

// remember keeps sv as the verdict of key, within the cache's bounds.
func (c *shapeCache) remember(key []byte, sv shapeVerdict) {
	if len(key) > maxShapeKey {
		return
	}
	c.mu.Lock()
	if len(c.errs) < maxShapes {
		c.errs[string(key)] = sv
	}
	c.mu.Unlock()
}

// check is verdict as the check function of Schema.ValidateWith.
func (c *shapeCache) check(base *schemas.Schema) func(v any) error {
	return func(v any) error { return c.verdict(base, v) }
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
	return c.verdict(base, v) == nil
}
