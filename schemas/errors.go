package schemas

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"
	"go.yaml.in/yaml/v3"
	"golang.org/x/text/language"
	"golang.org/x/text/message"
)

var printer = message.NewPrinter(language.English)

// Plan is what ViolationsOf reads from an error tree alone: the leaves a user can act on, with
// their paths and messages worded in advance. A caller that remembers error trees by the value's
// shape (lint, for thousands of concepts failing the same way) remembers the plan with it, and each
// concept then costs only the lookups of its positions (Violations). A Plan is read-only once made:
// workers may share one.
type Plan struct {
	leaves []leaf
	whole  string // the message of an error that is not a validation error, at the whole value
	other  bool
}

// leaf is one violation to be: where it is, and its message by what is found there (describe's
// answers, in descriptions' order), for the kinds whose message names it.
type leaf struct {
	k     jsonschema.ErrorKind
	loc   []string
	path  string
	extra string // an unexpected key, shown at the key itself
	msg   string
	byKin *[len(descriptions)]string
}

// descriptions are describe's answers.
var descriptions = [...]string{"a mapping", "a list", "null", "a boolean", "an integer", "a number", "a date", "a string", "a value"}

// PlanOf reads err, an error tree Check gave, for Violations. A nil err has no violations, and a
// nil plan.
func PlanOf(err error) *Plan {
	if err == nil {
		return nil
	}
	ve, ok := err.(*jsonschema.ValidationError)
	if !ok {
		return &Plan{whole: err.Error(), other: true}
	}
	p := &Plan{}
	collect(ve, p)
	return p
}

// Violations maps the plan's leaves to violations sorted by position, read from n (the mapping whose
// value gave the error tree, or one of the same shape).
func (p *Plan) Violations(n *yaml.Node) []Violation {
	if p == nil {
		return nil
	}
	if p.other {
		return []Violation{{Line: n.Line, Col: n.Column, Message: p.whole}}
	}
	if len(p.leaves) == 0 {
		return nil
	}
	out := make([]Violation, 0, len(p.leaves))
	keys := keyIndex{}
	for i := range p.leaves {
		out = append(out, p.leaves[i].violation(n, &keys))
	}
	if len(out) > 1 {
		slices.SortStableFunc(out, func(a, b Violation) int {
			return cmp.Or(cmp.Compare(a.Line, b.Line), cmp.Compare(a.Col, b.Col), strings.Compare(a.Message, b.Message))
		})
	}
	dedup := out[:0]
	for i, v := range out {
		if i > 0 && v == out[i-1] {
			continue
		}
		dedup = append(dedup, v)
	}
	return dedup
}

// collect walks the validator's error tree and keeps the leaves: "allOf failed" and "$ref failed"
// say nothing a user can act on, the errors under them do. anyOf and oneOf are kept whole, since
// none of their branches alone is the right advice.
func collect(e *jsonschema.ValidationError, p *Plan) {
	switch e.ErrorKind.(type) {
	case *kind.AnyOf, *kind.OneOf:
		p.leaves = append(p.leaves, leafOf(e))
		return
	}
	if len(e.Causes) == 0 {
		p.leaves = append(p.leaves, leafOf(e))
		return
	}
	for _, c := range e.Causes {
		collect(c, p)
	}
}

// maxMessage is the longest message a violation carries, in bytes: the validator's own words
// quote the value and the schema (a pattern, an enum), both of which a pull request writes.
const maxMessage = 512

// leafOf words the violation e will be wherever it is found: messageOf reads the node only through
// describe, so the message is made for each of describe's answers when its kind names what is
// found, and once otherwise.
func leafOf(e *jsonschema.ValidationError) leaf {
	l := leaf{k: e.ErrorKind, loc: e.InstanceLocation, path: clip(pathString(e.InstanceLocation))}
	if k, ok := e.ErrorKind.(*kind.AdditionalProperties); ok && len(k.Properties) > 0 {
		l.extra = k.Properties[0]
	}
	if namesFound(e.ErrorKind) {
		l.byKin = new([len(descriptions)]string)
		for i, d := range descriptions {
			l.byKin[i] = clip(messageOf(e.ErrorKind, d))
		}
	} else {
		l.msg = clip(messageOf(e.ErrorKind, ""))
	}
	return l
}

// namesFound reports whether messageOf's words for k name what is found.
func namesFound(k jsonschema.ErrorKind) bool {
	switch k.(type) {
	case *kind.Type, *kind.AnyOf, *kind.OneOf:
		return true
	}
	return false
}

func (l *leaf) violation(root *yaml.Node, keys *keyIndex) Violation {
	n := keys.lookup(root, l.loc)
	v := Violation{Path: l.path, Message: l.msg}
	if l.byKin != nil {
		if i := slices.Index(descriptions[:], describe(n)); i >= 0 {
			v.Message = l.byKin[i]
		} else {
			v.Message = clip(messageOf(l.k, describe(n)))
		}
	}
	at := n
	// An unexpected key is best shown at the key itself.
	if l.extra != "" && n.Kind == yaml.MappingNode {
		if kn := keyNode(n, l.extra); kn != nil {
			at = kn
		}
	}
	v.Line, v.Col = at.Line, at.Column
	if at.Kind == yaml.ScalarNode && !strings.Contains(at.Value, "\n") {
		width := utf8.RuneCountInString(at.Value)
		switch at.Style {
		case 0:
			v.EndLine, v.EndCol = at.Line, at.Column+width
		case yaml.DoubleQuotedStyle, yaml.SingleQuotedStyle:
			if !strings.ContainsAny(at.Value, `"'\`) {
				v.EndLine, v.EndCol = at.Line, at.Column+width+2
			}
		}
	}
	return v
}

// clip cuts s to maxMessage bytes (at a character boundary), marking the cut.
func clip(s string) string {
	if len(s) <= maxMessage {
		return s
	}
	cut := maxMessage
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "…"
}

// keyIndex remembers, for the large mappings violations are looked up in, where each key's value
// is: a mapping of 100,000 keys each in error would otherwise be scanned once per violation.
type keyIndex struct {
	of map[*yaml.Node]map[string]*yaml.Node
}

// lookup follows an instance location (mapping keys and list indexes) down from root, stopping at
// the deepest node that exists. For a duplicated key, the last one wins, as in the value.
func (x *keyIndex) lookup(root *yaml.Node, loc []string) *yaml.Node {
	n := root
	for _, tok := range loc {
		for n.Kind == yaml.AliasNode && n.Alias != nil {
			n = n.Alias
		}
		var next *yaml.Node
		switch n.Kind {
		case yaml.MappingNode:
			if len(n.Content) > 32 {
				m := x.of[n]
				if m == nil {
					if x.of == nil {
						x.of = map[*yaml.Node]map[string]*yaml.Node{}
					}
					m = make(map[string]*yaml.Node, len(n.Content)/2)
					for i := 0; i+1 < len(n.Content); i += 2 {
						m[keyText(n.Content[i])] = n.Content[i+1]
					}
					x.of[n] = m
				}
				next = m[tok]
				break
			}
			for i := 0; i+1 < len(n.Content); i += 2 {
				if keyText(n.Content[i]) == tok {
					next = n.Content[i+1]
				}
			}
		case yaml.SequenceNode:
			if i, err := strconv.Atoi(tok); err == nil && i >= 0 && i < len(n.Content) {
				next = n.Content[i]
			}
		}
		if next == nil {
			return n
		}
		n = next
	}
	return n
}

func keyNode(m *yaml.Node, name string) *yaml.Node {
	for i := 0; i+1 < len(m.Content); i += 2 {
		if keyText(m.Content[i]) == name {
			return m.Content[i]
		}
	}
	return nil
}

// pathString renders an instance location the way a YAML reader names it: sources[0].usage_count.
func pathString(loc []string) string {
	var b strings.Builder
	for _, tok := range loc {
		if _, err := strconv.Atoi(tok); err == nil {
			b.WriteString("[" + tok + "]")
			continue
		}
		if b.Len() > 0 {
			b.WriteByte('.')
		}
		b.WriteString(tok)
	}
	return b.String()
}

// yamlType names a JSON Schema type the way YAML authors think of it.
func yamlType(t string) string {
	switch t {
	case "object":
		return "a mapping"
	case "array":
		return "a list"
	case "string":
		return "a string"
	case "integer":
		return "an integer"
	case "number":
		return "a number"
	case "boolean":
		return "a boolean"
	case "null":
		return "null"
	}
	return t
}

// describe names the shape of a YAML node for messages ("an integer", "a list").
func describe(n *yaml.Node) string {
	switch n.Kind {
	case yaml.MappingNode:
		return "a mapping"
	case yaml.SequenceNode:
		return "a list"
	case yaml.AliasNode:
		if n.Alias != nil {
			return describe(n.Alias)
		}
	case yaml.ScalarNode:
		switch n.ShortTag() {
		case "!!null":
			return "null"
		case "!!bool":
			return "a boolean"
		case "!!int":
			return "an integer"
		case "!!float":
			return "a number"
		case "!!timestamp":
			return "a date"
		}
		return "a string"
	}
	return "a value"
}

func orList(words []string) string {
	switch len(words) {
	case 0:
		return ""
	case 1:
		return words[0]
	}
	return strings.Join(words[:len(words)-1], ", ") + " or " + words[len(words)-1]
}

func quoteAll(ss []string) string {
	q := make([]string, len(ss))
	for i, s := range ss {
		q[i] = strconv.Quote(s)
	}
	return strings.Join(q, ", ")
}

// messageOf words an error kind for a YAML author: what was expected, and what was found.
// found is describe's words for the node the error is at (only the kinds namesFound lists read it).
func messageOf(k jsonschema.ErrorKind, found string) string {
	switch k := k.(type) {
	case *kind.Type:
		want := make([]string, len(k.Want))
		for i, t := range k.Want {
			want[i] = yamlType(t)
		}
		return fmt.Sprintf("expected %s, found %s", orList(want), found)
	case *kind.Required:
		if len(k.Missing) == 1 {
			return fmt.Sprintf("missing required key %q", k.Missing[0])
		}
		return "missing required keys " + quoteAll(k.Missing)
	case *kind.AdditionalProperties:
		if len(k.Properties) == 1 {
			return fmt.Sprintf("unexpected key %q", k.Properties[0])
		}
		return "unexpected keys " + quoteAll(k.Properties)
	case *kind.MinLength:
		if k.Want == 1 {
			return "expected a non-empty string"
		}
	case *kind.AnyOf, *kind.OneOf:
		return fmt.Sprintf("%s matches none of the allowed shapes", found)
	case *kind.FalseSchema:
		return "no value is allowed here"
	case *kind.Enum:
		if len(k.Want) > 8 {
			// A bundle's enum may hold thousands of values: name a few.
			short := *k
			short.Want = k.Want[:8]
			return fmt.Sprintf("%s (and %d more)", short.LocalizedString(printer), len(k.Want)-8)
		}
	}
	return k.LocalizedString(printer)
}
