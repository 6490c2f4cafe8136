package lint

import (
	"strconv"
	"strings"

	"github.com/okf-tools/okf/okf"
)

// appendProjectionKey appends to b the shape key of projection(f), written straight from the
// typed frontmatter without building the projection: the keys in the order projection visits them
// (the file's order at the top, fixed orders inside entries) instead of sorted, but otherwise as
// appendShape writes it, so the key, read as JSON with a later key winning, has the projection's
// shape (TestProjectionKeyMatchesShape). A concept that fails the schema by a shape seen before is
// then settled by one lookup: on a bundle of generated records, where every concept fails the same
// way, building, sorting and releasing the projection was most of the schema check.
//
// ok is false where projection's is; afresh is true when a number is negative (or does not read
// as one), which verdict never takes from its memo (a `minimum` error quotes the number).
func appendProjectionKey(b []byte, f *okf.Frontmatter) (key []byte, afresh, ok bool) {
	if f.MayMerge() {
		return b, false, false
	}
	s := shaper{b: b, ok: true}
	s.open('{')
	for _, k := range f.Keys {
		val := k.Value
		s.field(k.Name)
		switch k.Name {
		case "tags":
			s.list(f.Tags)
		case "sources":
			if f.Sources.Kind != okf.Sequence {
				s.value(val)
				continue
			}
			s.open('[')
			for _, e := range f.Sources.Items {
				if e.Kind != okf.Mapping {
					s.value(e.Value)
					continue
				}
				s.open('{')
				s.put("id", e.ID)
				s.put("resource", e.Resource)
				s.put("title", e.Title)
				s.put("author", e.Author)
				s.put("usage_count", e.UsageCount)
				s.put("last_modified", e.LastModified.Value)
				if e.UsageWindow != nil {
					s.field("usage_window")
					s.window(e.UsageWindow)
				}
				s.close('}')
			}
			s.close(']')
		case "usage_window":
			if f.UsageWindow() != nil {
				s.window(f.UsageWindow())
			} else {
				s.value(val)
			}
		case "generated":
			if f.Generated != nil && f.Generated.Kind == okf.Mapping {
				s.stamp(*f.Generated)
			} else {
				s.value(val)
			}
		case "verified":
			switch f.Verified.Shape {
			case okf.VerifiedMapping:
				s.stamp(f.Verified.Entries[0])
			case okf.VerifiedList:
				s.open('[')
				for _, e := range f.Verified.Entries {
					s.stamp(e)
				}
				s.close(']')
			default:
				if val.Kind == okf.Sequence || val.Kind == okf.Mapping {
					s.ok = false
				}
				s.value(val)
			}
		case "parameters":
			if f.Parameters().Kind != okf.Sequence {
				s.value(val)
				continue
			}
			s.open('[')
			for _, it := range f.Parameters().Items {
				if it.Kind != okf.Mapping {
					s.value(it.Value)
					continue
				}
				s.open('{')
				s.put("name", it.Name)
				s.put("type", it.Type)
				s.put("required", it.Required)
				s.close('}')
			}
			s.close(']')
		case "executor":
			if e := f.Executor(); e != nil && e.Kind == okf.Mapping {
				s.open('{')
				s.put("resource", e.Resource)
				if e.Receipt.Present() {
					s.field("receipt")
					s.list(e.Receipt)
				}
				s.close('}')
			} else {
				s.value(val)
			}
		case "attester":
			if a := f.Attester(); a != nil && a.Kind == okf.Mapping {
				s.open('{')
				s.put("resource", a.Resource)
				s.close('}')
			} else {
				s.value(val)
			}
		default:
			s.value(val)
		}
	}
	s.close('}')
	return s.b[:len(s.b)-1], s.afresh, s.ok
}

// shaper writes a shape key: every value, and every container once closed, is followed by a comma,
// which close takes back, so the key is JSON.
type shaper struct {
	b      []byte
	ok     bool
	afresh bool
}

func (s *shaper) open(c byte) { s.b = append(s.b, c) }

func (s *shaper) close(c byte) {
	if s.b[len(s.b)-1] == ',' {
		s.b[len(s.b)-1] = c
	} else {
		s.b = append(s.b, c)
	}
	s.b = append(s.b, ',')
}

func (s *shaper) field(name string) {
	s.b = appendQuoted(s.b, name)
	s.b = append(s.b, ':')
}

func (s *shaper) put(name string, v okf.Value) {
	if v.Present() {
		s.field(name)
		s.value(v)
	}
}

func (s *shaper) list(l okf.List) {
	if l.Kind != okf.Sequence {
		s.value(l.Value)
		return
	}
	s.open('[')
	for _, it := range l.Items {
		s.value(it)
	}
	s.close(']')
}

func (s *shaper) window(w *okf.Window) {
	if w.Kind != okf.Mapping {
		s.value(w.Value)
		return
	}
	s.open('{')
	s.put("from", w.From.Value)
	s.put("to", w.To.Value)
	s.close('}')
}

func (s *shaper) stamp(st okf.Stamp) {
	if st.Kind != okf.Mapping {
		s.value(st.Value)
		return
	}
	s.open('{')
	s.put("by", st.By)
	s.put("at", st.At.Value)
	s.close('}')
}

// value writes the shape of what projector.value makes of v.
func (s *shaper) value(v okf.Value) {
	s.b = s.scalar(s.b, v)
	s.b = append(s.b, ',')
}

func (s *shaper) scalar(b []byte, v okf.Value) []byte {
	switch v.Kind {
	case okf.Mapping:
		return append(b, "{}"...)
	case okf.Sequence:
		return append(b, "[]"...)
	case okf.Null, okf.Absent:
		return append(b, "null"...)
	}
	switch v.Tag {
	case "!!null":
		return append(b, "null"...)
	case "!!bool":
		switch strings.ToLower(v.Raw) {
		case "true":
			return append(b, "true"...)
		case "false":
			return append(b, "false"...)
		}
		s.ok = false
	case "!!int":
		if i, err := strconv.ParseInt(v.Raw, 0, 64); err == nil {
			switch {
			case i < 0:
				s.afresh = true
				return append(b, "-1"...)
			case i == 0:
				return append(b, '0')
			}
			return append(b, '1')
		}
		s.ok = false
	case "!!float":
		// Rare: as projector.value and appendShape do, through the number's JSON text.
		p := projector{ok: true}
		n := p.value(v)
		if hasNegative(n) {
			s.afresh = true
		}
		s.ok = s.ok && p.ok
		return appendShape(b, n)
	}
	if v.Raw == "" {
		return append(b, `""`...)
	}
	return append(b, `"s"`...)
}
