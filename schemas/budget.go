package schemas

import (
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"go.yaml.in/yaml/v3"
)

// The bounds on a bundle's own schema file. Both the schema and the frontmatter come from the pull
// request, and JSON Schema lets a few hundred bytes of each ask for exponential work (two recursive
// anyOf branches and 26 levels of nesting: 2^26 evaluations, minutes), so a bundle's schema is
// bounded twice: when it is compiled (its size, its numbers, and no reference cycle that does not
// look inside the value), and before each check (the work it would take, estimated from the schema
// and the value together, is at most MaxWork). Past a bound, nothing runs: there is no validation
// to stop half-way.
const (
	// MaxSchemaNodes is the most subschemas (JSON objects and booleans) a bundle's schema file may
	// hold. The compiler's work grows with the square of their number: 20,000 took 5 s.
	MaxSchemaNodes = 5000
	// MaxSchemaDepth is how deeply a bundle's schema file may nest.
	MaxSchemaDepth = 128
	// MaxWork is the most work one check of a frontmatter against a bundle's schema may take, in
	// steps: one per subschema applied to one value, plus the share of enums, patterns, keys and
	// items each of those looks at. A real frontmatter takes a few thousand; a step costs 200 to
	// 700 ns, so the bound is about half a second of CPU.
	MaxWork = 1_000_000
	// MaxPatternBytes is the most bytes of regular expressions (`pattern` values and
	// `patternProperties` keys) a bundle's schema file may hold: Go compiles them in linear time,
	// but at about 1.3 µs a byte (a 4 MB pattern took 5.7 s).
	MaxPatternBytes = 64 << 10
	// maxNumberExponent bounds the exponent of a number in a bundle's schema: big.Rat turns
	// 1e999999999 into a billion digits, and a 1e-999999999 it cannot represent crashed the compiler.
	maxNumberExponent = 400
)

// WorkError says a check was not run because it would take more than MaxWork steps.
type WorkError struct {
	// Schema is the schema file's name, as given to Compile.
	Schema string
	// Limit is the bound passed (MaxWork).
	Limit int
}

func (e *WorkError) Error() string {
	return fmt.Sprintf("not checked: checking this frontmatter against %q would take more than %d steps (schemas.MaxWork)", e.Schema, e.Limit)
}

// ValidateLimited is Validate for a bundle's schema: it returns a *WorkError, and runs nothing,
// when the check would take more than MaxWork steps.
func (s *Schema) ValidateLimited(n *yaml.Node) ([]Violation, error) {
	v := ValueOf(n)
	if err := s.affordable(v); err != nil {
		return nil, err
	}
	return s.ViolationsOf(n, s.s.Validate(v)), nil
}

// affordable returns a *WorkError when checking v against a bundle's schema costs more than
// MaxWork (the built-in schemas, written here, are not estimated).
func (s *Schema) affordable(v any) error {
	if s.graph == nil {
		return nil
	}
	e := estimator{g: s.graph, limit: MaxWork, memo: map[pair]cost{}}
	root := e.build(v, 0)
	if e.over || e.of(s.s, root).c > MaxWork {
		return &WorkError{Schema: s.name, Limit: MaxWork}
	}
	return nil
}

// checkDocument refuses, before compiling, a schema document too large or too deep for the
// compiler (MaxSchemaNodes, MaxSchemaDepth, MaxPatternBytes) or with a number big.Rat would blow
// up.
func checkDocument(name string, doc any) error {
	nodes, patterns := 0, 0
	tooManyPatterns := fmt.Errorf("%q has more than %d bytes of patterns (pattern and patternProperties)", name, MaxPatternBytes)
	var walk func(v any, at string, depth int) error
	walk = func(v any, at string, depth int) error {
		if depth > MaxSchemaDepth {
			return fmt.Errorf("%q nests deeper than %d levels (at %q)", name, MaxSchemaDepth, at)
		}
		switch x := v.(type) {
		case map[string]any:
			if nodes++; nodes > MaxSchemaNodes {
				return fmt.Errorf("%q has more than %d subschemas", name, MaxSchemaNodes)
			}
			if p, ok := x["pattern"].(string); ok {
				if patterns += len(p); patterns > MaxPatternBytes {
					return tooManyPatterns
				}
			}
			if pp, ok := x["patternProperties"].(map[string]any); ok {
				for p := range pp {
					if patterns += len(p); patterns > MaxPatternBytes {
						return tooManyPatterns
					}
				}
			}
			for k, c := range x {
				if err := walk(c, at+"/"+k, depth+1); err != nil {
					return err
				}
			}
		case []any:
			for i, c := range x {
				if err := walk(c, at+"/"+strconv.Itoa(i), depth+1); err != nil {
					return err
				}
			}
		case bool:
			if nodes++; nodes > MaxSchemaNodes {
				return fmt.Errorf("%q has more than %d subschemas", name, MaxSchemaNodes)
			}
		case json.Number:
			if !modestNumber(string(x)) {
				return fmt.Errorf("%q has a number too large or too precise to use (at %q): at most %d digits and an exponent within ±%d", name, at, 64, maxNumberExponent)
			}
		}
		return nil
	}
	return walk(doc, "", 0)
}

// modestNumber reports whether a JSON number has at most 64 characters and an exponent within
// ±maxNumberExponent.
func modestNumber(s string) bool {
	if len(s) > 64 {
		return false
	}
	i := strings.IndexAny(s, "eE")
	if i < 0 {
		return true
	}
	e, err := strconv.Atoi(strings.TrimPrefix(s[i+1:], "+"))
	return err == nil && e >= -maxNumberExponent && e <= maxNumberExponent
}

// graph is what the estimator needs of a compiled bundle schema: the candidates a $dynamicRef or
// $recursiveRef may resolve to, and the longest chain of subschemas applied to one value.
type graph struct {
	dynamic   map[string][]*jsonschema.Schema // by $dynamicAnchor
	recursive []*jsonschema.Schema            // with $recursiveAnchor
	longest   int                             // the longest in-place chain, in subschemas
	enums     map[*jsonschema.Schema]uint64   // the size of each enum and const
}

// inPlace calls f on each subschema s may apply to the same value. With g, that includes every
// candidate of a $dynamicRef or $recursiveRef; without it (while g is being built), only their
// static targets.
func inPlace(s *jsonschema.Schema, g *graph, f func(*jsonschema.Schema)) {
	one := func(c *jsonschema.Schema) {
		if c != nil {
			f(c)
		}
	}
	one(s.Ref)
	one(s.Not)
	one(s.If)
	one(s.Then)
	one(s.Else)
	for _, c := range s.AllOf {
		one(c)
	}
	for _, c := range s.AnyOf {
		one(c)
	}
	for _, c := range s.OneOf {
		one(c)
	}
	for _, c := range s.DependentSchemas {
		one(c)
	}
	for _, d := range s.Dependencies {
		if c, ok := d.(*jsonschema.Schema); ok {
			one(c)
		}
	}
	if s.RecursiveRef != nil {
		one(s.RecursiveRef)
		if g != nil {
			for _, c := range g.recursive {
				one(c)
			}
		}
	}
	if s.DynamicRef != nil {
		one(s.DynamicRef.Ref)
		if g != nil && s.DynamicRef.Anchor != "" {
			for _, c := range g.dynamic[s.DynamicRef.Anchor] {
				one(c)
			}
		}
	}
}

// inside calls f on each subschema s applies to values inside the value.
func inside(s *jsonschema.Schema, f func(*jsonschema.Schema)) {
	one := func(c *jsonschema.Schema) {
		if c != nil {
			f(c)
		}
	}
	one(s.PropertyNames)
	for _, c := range s.Properties {
		one(c)
	}
	for _, c := range s.PatternProperties {
		one(c)
	}
	if c, ok := s.AdditionalProperties.(*jsonschema.Schema); ok {
		one(c)
	}
	one(s.UnevaluatedProperties)
	one(s.Contains)
	switch it := s.Items.(type) {
	case *jsonschema.Schema:
		one(it)
	case []*jsonschema.Schema:
		for _, c := range it {
			one(c)
		}
	}
	if c, ok := s.AdditionalItems.(*jsonschema.Schema); ok {
		one(c)
	}
	for _, c := range s.PrefixItems {
		one(c)
	}
	one(s.Items2020)
	one(s.UnevaluatedItems)
	one(s.ContentSchema)
}

var errInPlaceCycle = errors.New("refers back to itself without looking inside the value (a $ref, allOf, anyOf, oneOf, not, if/then/else or dependentSchemas cycle)")

// newGraph walks a compiled bundle schema (with the embedded schemas it refers to), refuses it when
// it has more than MaxSchemaNodes subschemas in all or a cycle of subschemas applied to the same
// value (the validator would report a cycle error on every value that reaches it, after walking
// it), and measures what the estimator needs.
func newGraph(root *jsonschema.Schema) (*graph, error) {
	g := &graph{dynamic: map[string][]*jsonschema.Schema{}, enums: map[*jsonschema.Schema]uint64{}}
	seen := map[*jsonschema.Schema]bool{}
	var all []*jsonschema.Schema
	stack := []*jsonschema.Schema{root}
	for len(stack) > 0 {
		s := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if seen[s] {
			continue
		}
		seen[s] = true
		all = append(all, s)
		if len(all) > 2*MaxSchemaNodes {
			return nil, fmt.Errorf("refers to more than %d subschemas", 2*MaxSchemaNodes)
		}
		if s.DynamicAnchor != "" {
			g.dynamic[s.DynamicAnchor] = append(g.dynamic[s.DynamicAnchor], s)
		}
		if s.RecursiveAnchor {
			g.recursive = append(g.recursive, s)
		}
		var size uint64
		if s.Enum != nil {
			for _, v := range s.Enum.Values {
				size += deepSize(v)
			}
		}
		if s.Const != nil {
			size += deepSize(*s.Const)
		}
		if size > 0 {
			g.enums[s] = size
		}
		push := func(c *jsonschema.Schema) { stack = append(stack, c) }
		inPlace(s, nil, push)
		inside(s, push)
	}
	// The longest in-place chain, by depth-first search; a schema met again while on the path is a
	// cycle.
	const (
		unseen = iota
		onPath
		done
	)
	state := map[*jsonschema.Schema]int{}
	longest := map[*jsonschema.Schema]int{}
	var visit func(s *jsonschema.Schema) error
	visit = func(s *jsonschema.Schema) error {
		switch state[s] {
		case onPath:
			return errInPlaceCycle
		case done:
			return nil
		}
		state[s] = onPath
		best := 0
		var err error
		inPlace(s, g, func(c *jsonschema.Schema) {
			if err == nil {
				if err = visit(c); err == nil {
					best = max(best, longest[c])
				}
			}
		})
		if err != nil {
			return err
		}
		state[s] = done
		longest[s] = best + 1
		g.longest = max(g.longest, best+1)
		return nil
	}
	for _, s := range all {
		if err := visit(s); err != nil {
			return nil, err
		}
	}
	return g, nil
}

// deepSize counts the values in a JSON-shaped value, and the bytes of its strings by eight.
func deepSize(v any) uint64 {
	switch x := v.(type) {
	case map[string]any:
		n := uint64(1)
		for k, c := range x {
			n += uint64(len(k))/8 + deepSize(c)
		}
		return n
	case []any:
		n := uint64(1)
		for _, c := range x {
			n += deepSize(c)
		}
		return n
	case string:
		return 1 + uint64(len(x))/8
	}
	return 1
}

// inode is a value of the frontmatter as the estimator sees it: its children (and, for a
// mapping, its keys as values of their own, which propertyNames checks).
type inode struct {
	id    int
	v     any
	depth int
	size  uint64 // deepSize
	keys  []string
	kbyte uint64 // the bytes of keys, plus one per key
	names []*inode
	kids  []*inode
	slen  int
}

type pair struct {
	s  *jsonschema.Schema
	id int
}

// cost is the estimate for one subschema on one value: c, the steps of the whole check, and n, the
// subschemas applied to that very value (each one walks back over those above it, looking for a
// cycle).
type cost struct{ c, n uint64 }

// estimator bounds from above the work of validating a value: every applicator is assumed to run
// all of its subschemas (every branch of anyOf, then and else, every pattern on every key), and
// each (subschema, value) pair is estimated once. The validator has no such memory, which is how
// the work becomes exponential; the estimate is the size of the tree of evaluations it would walk,
// reached without walking it. The estimator's own work is bounded by limit: it stops (over) as soon
// as the estimate or the pairs it has seen pass it.
type estimator struct {
	g     *graph
	limit uint64
	memo  map[pair]cost
	next  int
	over  bool
}

func (e *estimator) build(v any, depth int) *inode {
	n := &inode{id: e.next, v: v, depth: depth}
	e.next++
	if uint64(e.next) > e.limit {
		e.over = true
		return n
	}
	switch x := v.(type) {
	case map[string]any:
		n.size = 1
		for k, c := range x {
			kid := e.build(c, depth+1)
			n.keys = append(n.keys, k)
			n.kbyte += uint64(len(k)) + 1
			n.kids = append(n.kids, kid)
			n.names = append(n.names, &inode{id: -1, v: k, slen: len(k), size: 1 + uint64(len(k))/8})
			n.size += kid.size + uint64(len(k))/8
		}
		for _, nm := range n.names {
			nm.id = e.next
			e.next++
		}
	case []any:
		n.size = 1
		for _, c := range x {
			kid := e.build(c, depth+1)
			n.kids = append(n.kids, kid)
			n.size += kid.size
		}
	case string:
		n.slen = len(x)
		n.size = 1 + uint64(len(x))/8
	default:
		n.size = 1
	}
	return n
}

func (e *estimator) add(a, b uint64) uint64 {
	if a+b > e.limit {
		e.over = true
		return e.limit + 1
	}
	return a + b
}

// of estimates the work of s on the value n.
func (e *estimator) of(s *jsonschema.Schema, n *inode) cost {
	if e.over {
		return cost{e.limit + 1, e.limit + 1}
	}
	k := pair{s, n.id}
	if r, ok := e.memo[k]; ok {
		return r
	}
	if uint64(len(e.memo)) > e.limit {
		e.over = true
		return cost{e.limit + 1, e.limit + 1}
	}
	r := cost{c: 1, n: 1}
	if s.Bool == nil {
		r.c = e.add(r.c, e.local(s, n))
		// In place: each subschema on the same value; of a $dynamicRef's candidates only one runs.
		var dyn cost
		dynamic := func(c *jsonschema.Schema) {
			x := e.of(c, n)
			dyn.c, dyn.n = max(dyn.c, x.c), max(dyn.n, x.n)
		}
		inPlaceStatic(s, n, func(c *jsonschema.Schema) {
			x := e.of(c, n)
			r.c, r.n = e.add(r.c, x.c), e.add(r.n, x.n)
		}, dynamic, e.g)
		r.c, r.n = e.add(r.c, dyn.c), e.add(r.n, dyn.n)
		if s.DynamicRef != nil || s.RecursiveRef != nil {
			// Resolving the reference walks the whole scope, at most this deep.
			r.c = e.add(r.c, uint64(n.depth+1)*uint64(e.g.longest+1))
		}
		e.insideCost(s, n, &r)
		// The cycle check walks back over the subschemas above on the same value.
		r.c = e.add(r.c, r.n)
	}
	e.memo[k] = r
	return r
}

// inPlaceStatic is inPlace for one value: dependentSchemas (and draft-7 dependencies) only for
// the keys the value has, and the candidates of $dynamicRef and $recursiveRef through dynamic
// (only one of them runs).
func inPlaceStatic(s *jsonschema.Schema, n *inode, f, dynamic func(*jsonschema.Schema), g *graph) {
	one := func(c *jsonschema.Schema) {
		if c != nil {
			f(c)
		}
	}
	one(s.Ref)
	one(s.Not)
	one(s.If)
	one(s.Then)
	one(s.Else)
	for _, c := range s.AllOf {
		one(c)
	}
	for _, c := range s.AnyOf {
		one(c)
	}
	for _, c := range s.OneOf {
		one(c)
	}
	// dependentSchemas and dependencies apply for the keys the value has: walk the smaller side.
	if len(n.keys) > 0 && (len(s.DependentSchemas) > 0 || len(s.Dependencies) > 0) {
		if len(n.keys) < len(s.DependentSchemas)+len(s.Dependencies) {
			for _, k := range n.keys {
				one(s.DependentSchemas[k])
				if c, ok := s.Dependencies[k].(*jsonschema.Schema); ok {
					one(c)
				}
			}
		} else {
			m := n.v.(map[string]any)
			for k, c := range s.DependentSchemas {
				if _, ok := m[k]; ok {
					one(c)
				}
			}
			for k, d := range s.Dependencies {
				if c, ok := d.(*jsonschema.Schema); ok {
					if _, ok := m[k]; ok {
						one(c)
					}
				}
			}
		}
	}
	if s.RecursiveRef != nil {
		dynamic(s.RecursiveRef)
		for _, c := range g.recursive {
			dynamic(c)
		}
	}
	if s.DynamicRef != nil {
		if s.DynamicRef.Ref != nil {
			dynamic(s.DynamicRef.Ref)
		}
		if s.DynamicRef.Anchor != "" {
			for _, c := range g.dynamic[s.DynamicRef.Anchor] {
				dynamic(c)
			}
		}
	}
}

// local is the work of s's own keywords on n: its enum and const, its pattern, its required keys,
// and one step per child of a mapping or a list (the validator copies their names for
// unevaluated* and merges them back).
func (e *estimator) local(s *jsonschema.Schema, n *inode) uint64 {
	w := uint64(len(n.kids))
	w += e.g.enums[s]
	w += uint64(len(s.Required))
	for _, r := range s.DependentRequired {
		w += uint64(len(r))
	}
	if s.UniqueItems {
		w += n.size
	}
	if n.slen > 0 && (s.MinLength != nil || s.MaxLength != nil) {
		w += uint64(n.slen) / 64
	}
	if s.Pattern != nil {
		if _, ok := n.v.(string); ok {
			w += match(s.Pattern, n.slen)
		}
	}
	if len(n.keys) > 0 {
		// Every pattern on every key, summed without walking the pairs.
		for re := range s.PatternProperties {
			w += uint64(len(n.keys)) + n.kbyte*uint64(len(re.String())+1)/64
		}
	}
	// Looking up the keys the value has among dependentSchemas, and the candidates of a dynamic
	// reference.
	w += uint64(min(len(n.keys), len(s.DependentSchemas)+len(s.Dependencies)))
	if s.DynamicRef != nil && s.DynamicRef.Anchor != "" {
		w += uint64(len(e.g.dynamic[s.DynamicRef.Anchor]))
	}
	if s.RecursiveRef != nil {
		w += uint64(len(e.g.recursive))
	}
	return w
}

// match is the work of one regular expression on a string of length n: Go's engine is linear in
// the text, times the size of the expression.
func match(re jsonschema.Regexp, n int) uint64 {
	return 1 + uint64(n+1)*uint64(len(re.String())+1)/64
}

// insideCost adds the work of the subschemas s applies to the values inside n: every one that may
// apply to each key or item.
func (e *estimator) insideCost(s *jsonschema.Schema, n *inode, r *cost) {
	sub := func(c *jsonschema.Schema, kid *inode) {
		if c != nil && !e.over {
			r.c = e.add(r.c, e.of(c, kid).c)
		}
	}
	switch n.v.(type) {
	case map[string]any:
		add, _ := s.AdditionalProperties.(*jsonschema.Schema)
		for i, k := range n.keys {
			if e.over {
				return
			}
			kid := n.kids[i]
			p, ok := s.Properties[k]
			sub(p, kid)
			for _, c := range s.PatternProperties {
				sub(c, kid)
			}
			if !ok {
				sub(add, kid)
			}
			sub(s.UnevaluatedProperties, kid)
			sub(s.PropertyNames, n.names[i])
		}
	case []any:
		prefix, _ := s.Items.([]*jsonschema.Schema)
		item, _ := s.Items.(*jsonschema.Schema)
		more, _ := s.AdditionalItems.(*jsonschema.Schema)
		for i, kid := range n.kids {
			if e.over {
				return
			}
			if i < len(s.PrefixItems) {
				sub(s.PrefixItems[i], kid)
			}
			if i < len(prefix) {
				sub(prefix[i], kid)
			}
			sub(item, kid)
			sub(more, kid)
			sub(s.Items2020, kid)
			sub(s.Contains, kid)
			sub(s.UnevaluatedItems, kid)
		}
	}
}
