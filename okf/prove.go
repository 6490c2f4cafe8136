package okf

import (
	"bytes"
	"errors"
	"fmt"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"
)

// A rewrite of a file a person wrote must change what it says it changes and nothing else. Edits
// are made at byte offsets, which is what keeps comments, quoting and key order; but an offset is
// only as good as the parser's position, and a replacement text only as good as its quoting (a
// tags string that is itself a flow list was once split on its commas into `["[okf", …]`). So
// every rewrite is checked after the fact: the new text is parsed again and its meaning compared
// with the old text's, key by key, with the edit's intended changes applied. An edit that cannot
// be proven this way is not written.

// Meant is one YAML scalar as a reader sees it: its resolved tag (!!str, !!int, !!timestamp, …)
// and its text. Two scalars mean the same when both are equal, whatever their quoting or style.
type Meant struct {
	Tag, Text string
}

// Str is the meaning of a YAML string.
func Str(s string) Meant { return Meant{Tag: "!!str", Text: s} }

// StrList is the meaning of a YAML list of strings.
func StrList(items []string) []any {
	out := make([]any, len(items))
	for i, s := range items {
		out[i] = Str(s)
	}
	return out
}

// YAMLMeaning is the meaning of one YAML value written as text (a flow value on one line, as an
// edit writes it): what ProveEdit compares with. ok is false when text is not one YAML value.
func YAMLMeaning(text string) (any, bool) {
	var doc yaml.Node
	if err := yaml.Unmarshal([]byte("k: "+text+"\n"), &doc); err != nil || len(doc.Content) != 1 {
		return nil, false
	}
	m := doc.Content[0]
	if m.Kind != yaml.MappingNode || len(m.Content) != 2 {
		return nil, false
	}
	v, err := meaningOfNode(m.Content[1], 0)
	return v, err == nil
}

// NodeMeaning is the meaning of a YAML node an edit writes (built in code, or parsed): what
// ProveEdit compares with. Aliases are resolved; a node nested past a bound is an error.
func NodeMeaning(n *yaml.Node) (any, error) { return meaningOfNode(n, 0) }

// Change is one intended change of a frontmatter value: the value at Path (keys of mappings, and
// decimal indexes of lists; the index just past a list's end adds an item) becomes Value (a Meant,
// []any or map[string]any, as YAMLMeaning and NodeMeaning give), or is removed when Delete is set.
type Change struct {
	Path   []string
	Value  any
	Delete bool
	// From, when set, names a top-level key whose value moves to Path (a key renamed): Value is
	// then the old value at From, and From is removed.
	From []string
}

// ErrUnproven is wrapped by ProveEdit's errors: the rewritten text does not mean what the edit said.
var ErrUnproven = errors.New("the rewrite does not mean what it was meant to")

// ProveEdit checks that next, a rewrite of prev, means exactly what prev means with changes applied:
// the frontmatter parsed again, compared key by key (aliases resolved, quoting and comments
// ignored), and the body byte for byte. A file without parseable frontmatter before or after cannot
// be proven.
func ProveEdit(prev, next []byte, changes ...Change) error {
	before, bodyBefore, err := fileMeaning(prev)
	if err != nil {
		return fmt.Errorf("%w: the text before it: %v", ErrUnproven, err)
	}
	after, bodyAfter, err := fileMeaning(next)
	if err != nil {
		return fmt.Errorf("%w: the text it writes: %v", ErrUnproven, err)
	}
	if !bytes.Equal(bodyBefore, bodyAfter) {
		return fmt.Errorf("%w: the body changed", ErrUnproven)
	}
	want := any(before)
	for _, c := range changes {
		if len(c.From) == 1 {
			v, ok := before[c.From[0]]
			if !ok {
				return fmt.Errorf("%w: key %q to rename is not there", ErrUnproven, c.From[0])
			}
			want, err = applyChange(want, c.From, Change{Delete: true})
			if err != nil {
				return fmt.Errorf("%w: %v", ErrUnproven, err)
			}
			c = Change{Path: c.Path, Value: v}
		}
		want, err = applyChange(want, c.Path, c)
		if err != nil {
			return fmt.Errorf("%w: %v", ErrUnproven, err)
		}
	}
	wm, am := want.(map[string]any), after
	for k, v := range wm {
		got, ok := am[k]
		if !ok {
			return fmt.Errorf("%w: key %q is gone", ErrUnproven, k)
		}
		if !reflect.DeepEqual(v, got) {
			return moved(k, v, got)
		}
	}
	for k := range am {
		if _, ok := wm[k]; !ok {
			return fmt.Errorf("%w: key %q appeared", ErrUnproven, k)
		}
	}
	return nil
}

// fileMeaning parses a file's frontmatter into its meaning, and returns its body.
func fileMeaning(src []byte) (map[string]any, []byte, error) {
	sp := SplitFrontmatter(src)
	if sp.Status == NoFrontmatter {
		return map[string]any{}, sp.Body, nil // an index without frontmatter: nothing to compare
	}
	if sp.Status != FrontmatterOK {
		return nil, nil, errors.New("the frontmatter block never closes")
	}
	top, err := decodeYAML(sp.YAML, sp.YAMLLine, nil)
	if err != nil {
		return nil, nil, err
	}
	m, err := meaningOfNode(top, 0)
	if err != nil {
		return nil, nil, err
	}
	mm, ok := m.(map[string]any)
	if !ok {
		return nil, nil, errors.New("frontmatter is not a mapping")
	}
	return mm, sp.Body, nil
}

// maxMeaningDepth bounds the recursion of meaningOfNode: decodeYAML has already bounded aliases, and
// real frontmatter is a few levels deep.
const maxMeaningDepth = 256

func meaningOfNode(n *yaml.Node, depth int) (any, error) {
	if depth > maxMeaningDepth {
		return nil, errors.New("nested too deeply")
	}
	n = deref(n)
	switch n.Kind {
	case yaml.DocumentNode:
		if len(n.Content) == 0 {
			return map[string]any{}, nil
		}
		return meaningOfNode(n.Content[0], depth+1)
	case yaml.ScalarNode:
		return Meant{Tag: n.ShortTag(), Text: n.Value}, nil
	case yaml.SequenceNode:
		out := make([]any, 0, len(n.Content))
		for _, c := range n.Content {
			v, err := meaningOfNode(c, depth+1)
			if err != nil {
				return nil, err
			}
			out = append(out, v)
		}
		return out, nil
	case yaml.MappingNode:
		out := make(map[string]any, len(n.Content)/2)
		for i := 0; i+1 < len(n.Content); i += 2 {
			k := deref(n.Content[i])
			key := k.Value
			if k.Kind != yaml.ScalarNode {
				kv, err := meaningOfNode(k, depth+1)
				if err != nil {
					return nil, err
				}
				key = describeMeaning(kv)
			}
			v, err := meaningOfNode(n.Content[i+1], depth+1)
			if err != nil {
				return nil, err
			}
			out[key] = v
		}
		return out, nil
	}
	return nil, fmt.Errorf("a YAML node of kind %d", n.Kind)
}

func applyChange(v any, path []string, c Change) (any, error) {
	if len(path) == 0 {
		return c.Value, nil
	}
	switch x := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(x)+1)
		for k, e := range x {
			out[k] = e
		}
		if len(path) == 1 && c.Delete {
			if _, ok := out[path[0]]; !ok {
				return nil, fmt.Errorf("key %q to remove is not there", path[0])
			}
			delete(out, path[0])
			return out, nil
		}
		sub, ok := out[path[0]]
		if !ok && len(path) > 1 {
			return nil, fmt.Errorf("key %q is not there", path[0])
		}
		nv, err := applyChange(sub, path[1:], c)
		if err != nil {
			return nil, err
		}
		out[path[0]] = nv
		return out, nil
	case []any:
		i, err := strconv.Atoi(path[0])
		if err == nil && i == len(x) && len(path) == 1 && !c.Delete {
			return append(append([]any(nil), x...), c.Value), nil // an item added at the end
		}
		if err != nil || i < 0 || i >= len(x) {
			return nil, fmt.Errorf("no item %q", path[0])
		}
		out := append([]any(nil), x...)
		if len(path) == 1 && c.Delete {
			return append(out[:i], out[i+1:]...), nil
		}
		nv, err := applyChange(out[i], path[1:], c)
		if err != nil {
			return nil, err
		}
		out[i] = nv
		return out, nil
	}
	return nil, fmt.Errorf("%q is inside a scalar", path[0])
}

// moved says how got, the value at the dotted path p after a rewrite, differs from want: at the
// deepest path where they part (a key of a mapping gone or added, an item of a list of the same
// length changed), so that the message names the value that moved, not the key holding it.
func moved(p string, want, got any) error {
	switch w := want.(type) {
	case map[string]any:
		g, ok := got.(map[string]any)
		if !ok {
			break
		}
		keys := make([]string, 0, len(w)+len(g))
		for k := range w {
			keys = append(keys, k)
		}
		for k := range g {
			if _, ok := w[k]; !ok {
				keys = append(keys, k)
			}
		}
		sort.Strings(keys)
		for _, k := range keys {
			wv, inW := w[k]
			gv, inG := g[k]
			switch {
			case !inG:
				return fmt.Errorf("%w: key %q is gone", ErrUnproven, p+"."+k)
			case !inW:
				return fmt.Errorf("%w: key %q appeared", ErrUnproven, p+"."+k)
			case !reflect.DeepEqual(wv, gv):
				return moved(p+"."+k, wv, gv)
			}
		}
	case []any:
		g, ok := got.([]any)
		if !ok || len(g) != len(w) {
			break
		}
		for i := range w {
			if !reflect.DeepEqual(w[i], g[i]) {
				return moved(p+"."+strconv.Itoa(i), w[i], g[i])
			}
		}
	}
	return fmt.Errorf("%w: %q now reads %s, expected %s", ErrUnproven, p, describeMeaning(got), describeMeaning(want))
}

// describeMeaning renders a meaning for a message, in YAML flow style with each scalar's tag where
// it is not a string.
func describeMeaning(v any) string {
	switch x := v.(type) {
	case Meant:
		if x.Tag == "!!str" {
			return strconv.Quote(x.Text)
		}
		return x.Text + " (" + strings.TrimPrefix(x.Tag, "!!") + ")"
	case []any:
		parts := make([]string, len(x))
		for i, e := range x {
			parts[i] = describeMeaning(e)
		}
		return "[" + strings.Join(parts, ", ") + "]"
	case map[string]any:
		if len(x) == 1 {
			return "a mapping of 1 key"
		}
		return fmt.Sprintf("a mapping of %d keys", len(x))
	}
	return fmt.Sprint(v)
}

// ProveFrontmatter is ProveEdit for an edit that may also change the body (an index entry appended):
// only the frontmatter is compared; the caller checks the body.
func ProveFrontmatter(prev, next []byte, changes ...Change) error {
	ps, ns := SplitFrontmatter(prev), SplitFrontmatter(next)
	if ps.Status == Unterminated || ns.Status == Unterminated {
		return fmt.Errorf("%w: the frontmatter block never closes", ErrUnproven)
	}
	// Compare as if the body had not moved: next's frontmatter with prev's body.
	return ProveEdit(prev, append(append([]byte(nil), next[:ns.BodyOffset]...), ps.Body...), changes...)
}

// ValuePaths maps the byte offset at which each scalar value of src's frontmatter starts to its
// path in the parsed tree (keys of mappings, decimal indexes of lists): built once per file, so that
// every edit of the file is placed by the parser, not guessed from the text. It is nil when the
// frontmatter does not parse.
func ValuePaths(src []byte) map[int][]string {
	sp := SplitFrontmatter(src)
	if sp.Status != FrontmatterOK {
		return nil
	}
	top, err := decodeYAML(sp.YAML, sp.YAMLLine, nil)
	if err != nil {
		return nil
	}
	li := &offsetOf{li: newLineIndex(src)}
	out := map[int][]string{}
	var walk func(n *yaml.Node, path []string, depth int)
	walk = func(n *yaml.Node, path []string, depth int) {
		if depth > maxMeaningDepth {
			return
		}
		visit := func(v *yaml.Node, p []string) {
			if v.Kind == yaml.ScalarNode {
				if off := li.at(v.Line, v.Column); off >= 0 {
					if _, dup := out[off]; !dup {
						out[off] = p
					}
				}
				return
			}
			walk(v, p, depth+1)
		}
		switch n.Kind {
		case yaml.MappingNode:
			for i := 0; i+1 < len(n.Content); i += 2 {
				if k := n.Content[i]; k.Kind == yaml.ScalarNode {
					visit(n.Content[i+1], append(append([]string(nil), path...), k.Value))
				}
			}
		case yaml.SequenceNode:
			for i, v := range n.Content {
				visit(v, append(append([]string(nil), path...), strconv.Itoa(i)))
			}
		}
	}
	walk(top, nil, 0)
	return out
}

// ValueChange says what an edit of one frontmatter value means: the value that starts at e.Start
// (paths: ValuePaths of the file's text) becomes what e.New reads as. ok is false when no value
// starts there or e.New is not one YAML value.
func ValueChange(paths map[int][]string, e Edit) (Change, bool) {
	path, ok := paths[e.Start]
	if !ok {
		return Change{}, false
	}
	v, ok := YAMLMeaning(e.New)
	if !ok {
		return Change{}, false
	}
	return Change{Path: path, Value: v}, true
}

// offsetOf converts a 1-based line and rune column to a byte offset (-1 when there is none),
// counting on from the last answer when it is on the same line and before it, so that the values of
// one long line cost one pass over it, not one pass each.
type offsetOf struct {
	li                   *lineIndex
	line, col, off, seen int
}

func (o *offsetOf) at(line, col int) int {
	li := o.li
	if line < 1 || line > len(li.starts) || col < 1 {
		return -1
	}
	off, c := li.starts[line-1], 1
	if o.seen == 1 && o.line == line && o.col <= col {
		off, c = o.off, o.col
	}
	for ; c < col; c++ {
		if off >= len(li.src) || li.src[off] == '\n' {
			return -1
		}
		_, size := utf8.DecodeRune(li.src[off:])
		off += size
	}
	o.line, o.col, o.off, o.seen = line, col, off, 1
	return off
}
