package okf

import (
	"strconv"

	"go.yaml.in/yaml/v3"
)

// Kind is the YAML shape of a frontmatter value.
type Kind int

// The shapes a value can have. Absent means the key is not there at all.
const (
	Absent Kind = iota
	Scalar
	Sequence
	Mapping
	Null
)

var kindNames = [...]string{"absent", "scalar", "list", "mapping", "null"}

// String names the shape the way messages do ("a list", "a mapping").
func (k Kind) String() string { return kindNames[k] }

// Value is one frontmatter value with where it was written. It is a compact copy of what the
// yaml.Node said, kept instead of the node so that a loaded bundle of 10,000 concepts stays small;
// Frontmatter.Node re-reads the full node (comments, key order) when a caller needs to rewrite.
type Value struct {
	Kind Kind `json:"kind"`
	// Tag is the YAML tag as yaml.v3 resolved it: "!!str", "!!int", "!!bool", "!!timestamp", …
	Tag string `json:"tag,omitempty"`
	// Raw is the scalar text exactly as written (a timestamp is never turned into a date, D3).
	Raw string `json:"raw,omitempty"`
	// Pos is where the value starts (for an absent value, zero). The key's position is in
	// Frontmatter.Keys, not here: a loaded bundle keeps hundreds of thousands of Values.
	Pos Position `json:"position"`
}

// Present reports whether the key was written (even with a null value).
func (v Value) Present() bool { return v.Kind != Absent }

// IsString reports whether the value is a scalar that YAML reads as a string. A quoted "123" is a
// string; an unquoted 123 is not.
func (v Value) IsString() bool { return v.Kind == Scalar && v.Tag == "!!str" }

// Text returns the scalar text ("" for anything but a scalar). It is not named String so that the
// structs embedding Value still print their fields with %v.
func (v Value) Text() string {
	if v.Kind != Scalar {
		return ""
	}
	return v.Raw
}

// Int returns the value as an integer when it is an integer scalar.
func (v Value) Int() (int64, bool) {
	if v.Kind != Scalar || v.Tag != "!!int" {
		return 0, false
	}
	n, err := strconv.ParseInt(v.Raw, 0, 64)
	return n, err == nil
}

// Bool returns the value as a boolean when it is a boolean scalar.
func (v Value) Bool() (b bool, ok bool) {
	if v.Kind != Scalar || v.Tag != "!!bool" {
		return false, false
	}
	var out bool
	if err := yaml.Unmarshal([]byte(v.Raw), &out); err != nil {
		return false, false
	}
	return out, true
}

// Describe names the value's shape for messages: "a string", "an integer", "a list", …
func (v Value) Describe() string {
	switch v.Kind {
	case Absent:
		return "nothing"
	case Null:
		return "null"
	case Sequence:
		return "a list"
	case Mapping:
		return "a mapping"
	}
	switch v.Tag {
	case "!!str":
		if v.Raw == "" {
			return "an empty string"
		}
		return "a string"
	case "!!int":
		return "an integer"
	case "!!float":
		return "a number"
	case "!!bool":
		return "a boolean"
	case "!!timestamp":
		return "a timestamp"
	}
	return "a scalar"
}

// valueOf copies what a node says.
func valueOf(path string, n *yaml.Node) Value {
	if n == nil {
		return Value{}
	}
	for n.Kind == yaml.AliasNode && n.Alias != nil {
		n = n.Alias
	}
	v := Value{Pos: Position{Path: path, Line: clamp32(n.Line), Col: clamp32(n.Column)}, Tag: n.ShortTag()}
	switch n.Kind {
	case yaml.ScalarNode:
		if v.Tag == "!!null" {
			v.Kind = Null
		} else {
			v.Kind = Scalar
		}
		v.Raw = n.Value
	case yaml.SequenceNode:
		v.Kind = Sequence
	case yaml.MappingNode:
		v.Kind = Mapping
	default:
		v.Kind = Null
	}
	return v
}

// lookup returns the key and value nodes of key in mapping m.
func lookup(m *yaml.Node, key string) (k, v *yaml.Node) {
	m = deref(m) // `executor: *ex` is the mapping anchored as &ex (D3)
	if m == nil || m.Kind != yaml.MappingNode {
		return nil, nil
	}
	merges := false
	for i := 0; i+1 < len(m.Content); i += 2 {
		if isMergeKey(m.Content[i]) {
			merges = true
		} else if m.Content[i].Value == key {
			return m.Content[i], m.Content[i+1]
		}
	}
	if !merges {
		return nil, nil
	}
	found := false
	eachMerged(m, func(mk, mv *yaml.Node) bool {
		if mk.Value == key {
			k, v, found = mk, mv, true
		}
		return found
	})
	return k, v
}

// isMergeKey reports whether k is YAML's merge key: a plain `<<`, which yaml.v3 tags !!merge (a
// quoted "<<" is an ordinary key).
func isMergeKey(k *yaml.Node) bool {
	return k.Kind == yaml.ScalarNode && k.Value == "<<" && k.ShortTag() == "!!merge"
}

// eachMerged calls fn with the key-value pairs the merge keys of mapping m bring in (D3: YAML as
// yaml.v3 reads it), in the order that decides which wins: the mappings of a `<<` in order, each one's
// own keys before those of its own merges. A key written in m itself wins over all of them and is not
// passed; fn returns true to stop. Each mapping is visited once, so merges that share mappings cost
// no more than the text that holds them.
func eachMerged(m *yaml.Node, fn func(k, v *yaml.Node) bool) {
	seen := map[*yaml.Node]bool{m: true}
	written := map[string]bool{}
	for i := 0; i+1 < len(m.Content); i += 2 {
		if !isMergeKey(m.Content[i]) {
			written[m.Content[i].Value] = true
		}
	}
	var walk func(n *yaml.Node) bool
	walk = func(n *yaml.Node) bool {
		for i := 0; i+1 < len(n.Content); i += 2 {
			if !isMergeKey(n.Content[i]) {
				continue
			}
			var sources []*yaml.Node
			switch v := deref(n.Content[i+1]); {
			case v == nil:
			case v.Kind == yaml.MappingNode:
				sources = []*yaml.Node{v}
			case v.Kind == yaml.SequenceNode:
				for _, c := range v.Content {
					if c = deref(c); c != nil && c.Kind == yaml.MappingNode {
						sources = append(sources, c)
					}
				}
			}
			for _, src := range sources {
				if seen[src] {
					continue
				}
				seen[src] = true
				for j := 0; j+1 < len(src.Content); j += 2 {
					sk := src.Content[j]
					if isMergeKey(sk) || written[sk.Value] {
						continue
					}
					written[sk.Value] = true
					if fn(sk, src.Content[j+1]) {
						return true
					}
				}
				if walk(src) {
					return true
				}
			}
		}
		return false
	}
	walk(m)
}

// field copies the value of key in mapping m.
func field(path string, m *yaml.Node, key string) Value {
	k, v := lookup(m, key)
	if k == nil {
		return Value{}
	}
	return valueOf(path, v)
}
