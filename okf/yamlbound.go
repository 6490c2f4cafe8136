package okf

import (
	"fmt"

	"go.yaml.in/yaml/v3"
)

// MaxAliasExpansion bounds what YAML aliases may add to a document: expanding every alias (as a
// schema check or a conversion to JSON does) may yield at most this many values beyond those
// written. A "billion laughs" block of a few hundred bytes (nine anchors, each a list of nine
// aliases to the previous) would otherwise expand to 9⁹ values and gigabytes; real frontmatter uses
// aliases rarely and adds a handful of values.
const MaxAliasExpansion = 100_000

// CheckYAMLAliases checks a parsed YAML node for the alias shapes D3 calls unparseable: an alias
// inside the value it refers to (a cycle: expanding it never ends) and aliases expanding past
// MaxAliasExpansion values. Undefined aliases are already a parse error in yaml.v3. It runs in
// time linear in the nodes as written: each anchored value's expanded size is computed once.
// The error is an *AliasError.
func CheckYAMLAliases(n *yaml.Node) error {
	var w aliasWalk // its maps are made at the first anchor: most blocks have none
	total, err := w.walk(n)
	if err != nil {
		return err
	}
	if total-w.written > MaxAliasExpansion {
		return &AliasError{Line: max(n.Line, 1), Msg: fmt.Sprintf("aliases expand to more than %d values beyond those written (an alias bomb?): not read", MaxAliasExpansion)}
	}
	return nil
}

// AliasError is an alias problem at a line of the parsed text (the node's Line).
type AliasError struct {
	Line int
	Msg  string
}

func (e *AliasError) Error() string { return fmt.Sprintf("line %d: %s", e.Line, e.Msg) }

type aliasWalk struct {
	active  map[*yaml.Node]bool  // anchored values being walked: an alias to one is a cycle
	size    map[*yaml.Node]int64 // expanded size of each anchored value walked
	written int64                // nodes as written
}

// limit caps the running sizes, so a bomb's arithmetic never overflows.
const aliasSizeCap = 1 << 40

func (w *aliasWalk) walk(n *yaml.Node) (int64, error) {
	if n == nil {
		return 0, nil
	}
	if n.Kind == yaml.AliasNode {
		t := n.Alias
		if t == nil {
			return 1, nil
		}
		if w.active[t] {
			return 0, &AliasError{Line: max(n.Line, 1), Msg: fmt.Sprintf("alias *%s is inside the value it refers to (a cycle that never ends): not read", n.Value)}
		}
		if s, ok := w.size[t]; ok {
			if s > MaxAliasExpansion {
				// Name the first alias that alone passes the bound: the bomb's fuse.
				return 0, &AliasError{Line: max(n.Line, 1), Msg: fmt.Sprintf("alias *%s expands to more than %d values (an alias bomb?): not read", n.Value, MaxAliasExpansion)}
			}
			return s, nil
		}
		// YAML defines an anchor before its aliases, so this is not reached for documents yaml.v3
		// parsed; walking the target keeps the result right for hand-built nodes.
		return w.walk(t)
	}
	w.written++
	if n.Anchor != "" {
		if w.active == nil {
			w.active, w.size = map[*yaml.Node]bool{}, map[*yaml.Node]int64{}
		}
		w.active[n] = true
		defer delete(w.active, n)
	}
	total := int64(1)
	for _, c := range n.Content {
		s, err := w.walk(c)
		if err != nil {
			return 0, err
		}
		total = min(total+s, aliasSizeCap)
	}
	if n.Anchor != "" {
		w.size[n] = total
	}
	return total, nil
}
