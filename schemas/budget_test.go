package schemas

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"
)

// within runs f and fails the test when it has not returned after limit: a hang guard, so that a
// check that is unbounded again fails in seconds instead of holding the suite for minutes. It is
// not a timing assertion: the bounded checks take a small fraction of it. f returns what is
// wrong ("" when nothing is), reported here, so that a late f cannot fail a finished test.
func within(t *testing.T, limit time.Duration, f func() string) {
	t.Helper()
	done := make(chan string, 1)
	go func() { done <- f() }()
	select {
	case msg := <-done:
		if msg != "" {
			t.Error(msg)
		}
	case <-time.After(limit):
		t.Fatalf("still running after %v", limit)
	}
}

// nested is a flow mapping depth levels deep: {a: {a: … leaf}}.
func nested(depth int, leaf string) string {
	return strings.Repeat("{a: ", depth) + leaf + strings.Repeat("}", depth)
}

// hostileSchemas are schemas a pull request can add with a frontmatter that makes checking it
// take exponential (or otherwise superlinear) work: each must end with a *WorkError.
func hostileSchemas() []struct{ name, schema, front string } {
	var enum strings.Builder
	enum.WriteString(`{"type": "object", "properties": {"a": {"items": {"enum": [`)
	for i := range 40000 {
		if i > 0 {
			enum.WriteByte(',')
		}
		fmt.Fprintf(&enum, `"v%d"`, i)
	}
	enum.WriteString(`]}}}}`)
	list := "a: [" + strings.TrimSuffix(strings.Repeat("x, ", 40000), ", ") + "]"

	alt := strings.TrimSuffix(strings.Repeat("abcdefghij|", 2000), "|")
	long := strings.Repeat("z", 4000)
	patterned := "a: [" + strings.TrimSuffix(strings.Repeat(long+", ", 2000), ", ") + "]"

	return []struct{ name, schema, front string }{
		{"anyOf twice recursive", `{"$defs": {"n": {"anyOf": [
			{"type": "object", "properties": {"a": {"$ref": "#/$defs/n"}}},
			{"type": "object", "properties": {"a": {"$ref": "#/$defs/n"}}}]}},
			"$ref": "#/$defs/n"}`, nested(26, "1")},
		{"allOf and oneOf", `{"$defs": {"n": {"oneOf": [{"$ref": "#/$defs/m"}, {"$ref": "#/$defs/m"}]},
			"m": {"type": "object", "allOf": [{"properties": {"a": {"$ref": "#/$defs/n"}}},
				{"properties": {"a": {"$ref": "#/$defs/n"}}}]}}, "$ref": "#/$defs/n"}`, nested(15, "1")},
		{"if then else", `{"type": "object", "if": {"properties": {"a": {"$ref": "#"}}},
			"then": {"properties": {"a": {"$ref": "#"}}}, "else": {"properties": {"a": {"$ref": "#"}}}}`,
			nested(26, "1")},
		{"dependentSchemas", `{"type": "object", "properties": {"a": {"$ref": "#"}},
			"dependentSchemas": {"a": {"properties": {"a": {"$ref": "#"}}}}}`, nested(26, "1")},
		{"patternProperties", `{"type": "object", "patternProperties": {"^a": {"$ref": "#"}, "a$": {"$ref": "#"}},
			"unevaluatedProperties": false}`, nested(26, "1")},
		{"$dynamicRef", `{"$dynamicAnchor": "n", "type": "object", "oneOf": [{"properties": {"a": {"$dynamicRef": "#n"}}},
			{"properties": {"a": {"$dynamicRef": "#n"}}}]}`, nested(26, "1")},
		{"items and contains", `{"type": "object", "properties": {"a": {"$ref": "#/$defs/l"}},
			"$defs": {"l": {"type": "array", "items": {"$ref": "#/$defs/l"}, "contains": {"$ref": "#/$defs/l"}}}}`,
			"a: " + strings.Repeat("[", 26) + "1" + strings.Repeat("]", 26)},
		{"huge enum, many values", enum.String(), list},
		{"many patterns, many keys", `{"patternProperties": {` + shortPatterns(4500) + `}}`, manyKeys(200000)},
		{"long pattern, long strings", `{"type": "object", "properties": {"a": {"items": {"pattern": "^(` + alt + `)$"}}}}`, patterned},
	}
}

// TestValidateBoundedWork: whatever the schema's applicators and the frontmatter, checking one
// frontmatter against a bundle's schema stops at MaxWork with a *WorkError instead of running for
// minutes.
func TestValidateBoundedWork(t *testing.T) {
	for _, c := range hostileSchemas() {
		t.Run(c.name, func(t *testing.T) {
			s, err := Compile("schemas/x.json", []byte(c.schema))
			if err != nil {
				t.Fatal(err)
			}
			n := node(t, c.front)
			within(t, 60*time.Second, func() string {
				vs, err := s.ValidateLimited(n)
				var we *WorkError
				if !errors.As(err, &we) {
					return fmt.Sprintf("%d violations, err %v; want a *WorkError", len(vs), err)
				}
				return ""
			})
		})
	}
}

// TestValidateBoundedWorkKeepsRealSchemas: recursive schemas that descend into the value, large
// enums and many keys are checked as before, with their violations.
func TestValidateBoundedWorkKeepsRealSchemas(t *testing.T) {
	var enum []string
	for i := range 2000 {
		enum = append(enum, fmt.Sprintf("%q", fmt.Sprintf("v%d", i)))
	}
	var keys []string
	for i := range 500 {
		keys = append(keys, fmt.Sprintf("k%d: v%d", i, i))
	}
	for _, c := range []struct{ name, schema, front, want string }{
		{"recursive tree", `{"$defs": {"n": {"type": "object", "properties": {"a": {"$ref": "#/$defs/n"}}}}, "$ref": "#/$defs/n"}`,
			nested(60, "1"), "expected a mapping, found an integer"},
		{"anyOf", `{"$defs": {"n": {"anyOf": [{"type": "object", "properties": {"a": {"$ref": "#/$defs/n"}}}, {"type": "string"}]}},
			"$ref": "#/$defs/n"}`, nested(20, "1"), "matches none of the allowed shapes"},
		{"enum", `{"type": "object", "properties": {"a": {"items": {"enum": [` + strings.Join(enum, ",") + `]}}}}`,
			"a: [" + strings.TrimSuffix(strings.Repeat("v1, ", 300), ", ") + ", nope]", "value must be one of"},
		{"many keys", `{"type": "object", "patternProperties": {"^k": {"type": "string"}, "^x": {"type": "integer"}},
			"additionalProperties": false, "required": ["k1"]}`, "{" + strings.Join(keys, ", ") + ", x1: no}",
			"expected an integer, found a string"},
	} {
		t.Run(c.name, func(t *testing.T) {
			s, err := Compile("schemas/x.json", []byte(c.schema))
			if err != nil {
				t.Fatal(err)
			}
			vs, err := s.ValidateLimited(node(t, c.front))
			if err != nil {
				t.Fatal(err)
			}
			if len(vs) == 0 || !strings.Contains(vs[0].Message, c.want) {
				t.Fatalf("violations %v, want %q", vs, c.want)
			}
		})
	}
}

// TestCompileBoundedWork: a schema whose compilation (or first use) would take superlinear time or
// memory is refused with an error naming the file and the limit.
func TestCompileBoundedWork(t *testing.T) {
	var chain strings.Builder
	chain.WriteString(`{"$ref": "#/$defs/d0", "$defs": {`)
	for i := range 60000 {
		fmt.Fprintf(&chain, `"d%d": {"$ref": "#/$defs/d%d"}, `, i, i+1)
	}
	chain.WriteString(`"d60000": {"type": "string"}}}`)
	var wide strings.Builder
	wide.WriteString(`{"properties": {`)
	for i := range 300000 {
		fmt.Fprintf(&wide, `"p%d": {"type": "string"}, `, i)
	}
	wide.WriteString(`"last": {}}}`)
	for _, c := range []struct{ name, schema, want string }{
		{"deep $ref chain", chain.String(), "more than"},
		{"many subschemas", wide.String(), "more than"},
		{"huge pattern", `{"pattern": "` + strings.Repeat("abcdefghij|", 400000) + `x"}`, "bytes of patterns"},
		{"many patternProperties", `{"patternProperties": {` + manyPatterns(3000) + `}}`, "bytes of patterns"},
		{"huge number", `{"minimum": 1e999999999}`, "number"},
		{"huge multipleOf", `{"multipleOf": 1e-999999999}`, "number"},
		{"deep nesting", strings.Repeat(`{"not": `, 5000) + "{}" + strings.Repeat("}", 5000), "deeper than"},
		{"in-place cycle", `{"$defs": {"a": {"anyOf": [{"$ref": "#/$defs/b"}]}, "b": {"allOf": [{"$ref": "#/$defs/a"}]}}, "$ref": "#/$defs/a"}`, "without looking inside"},
	} {
		t.Run(c.name, func(t *testing.T) {
			n := node(t, nested(3, "1"))
			within(t, 60*time.Second, func() string {
				s, err := Compile("schemas/x.json", []byte(c.schema))
				if err == nil {
					_, err = s.ValidateLimited(n)
				}
				if err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), "schemas/x.json") {
					return fmt.Sprintf("err %.300v; want one naming the file and saying %q", err, c.want)
				}
				return ""
			})
		})
	}
}

// TestViolationsOfWideMapping: a check within MaxWork that fails on each of 60,000 keys maps each
// violation to its key without scanning the mapping once per violation, and a violation quoting a
// large enum says a few of its values.
func TestViolationsOfWideMapping(t *testing.T) {
	var keys []string
	for i := range 60000 {
		keys = append(keys, fmt.Sprintf("k%d: v", i))
	}
	s, err := Compile("schemas/x.json", []byte(`{"additionalProperties": {"type": "integer"}}`))
	if err != nil {
		t.Fatal(err)
	}
	n := node(t, "{"+strings.Join(keys, ", ")+"}")
	within(t, 60*time.Second, func() string {
		vs, err := s.ValidateLimited(n)
		if err != nil || len(vs) != 60000 || vs[59999].Path != "k59999" {
			return fmt.Sprintf("%d violations, err %v", len(vs), err)
		}
		return ""
	})
	var enum []string
	for i := range 5000 {
		enum = append(enum, fmt.Sprintf(`"value-%d"`, i))
	}
	s, err = Compile("schemas/x.json", []byte(`{"properties": {"a": {"enum": [`+strings.Join(enum, ",")+`]}}}`))
	if err != nil {
		t.Fatal(err)
	}
	vs, err := s.ValidateLimited(node(t, "a: nope"))
	if err != nil || len(vs) != 1 || len(vs[0].Message) > maxMessage+3 || !strings.Contains(vs[0].Message, "4992 more") {
		t.Fatalf("violations %v, err %v", vs, err)
	}
}

// manyPatterns is n patternProperties of 40 bytes each.
func manyPatterns(n int) string {
	ps := make([]string, n)
	for i := range ps {
		ps[i] = fmt.Sprintf(`"^(abcdefghij|klmnopqrst|uvwxyz)+%06d$": {}`, i)
	}
	return strings.Join(ps, ", ")
}

// shortPatterns is n patternProperties of a few bytes each.
func shortPatterns(n int) string {
	ps := make([]string, n)
	for i := range ps {
		ps[i] = fmt.Sprintf(`"^%d$": {}`, i)
	}
	return strings.Join(ps, ", ")
}

// manyKeys is a flow mapping of n keys.
func manyKeys(n int) string {
	ks := make([]string, n)
	for i := range ks {
		ks[i] = fmt.Sprintf("k%d: 1", i)
	}
	return "{" + strings.Join(ks, ", ") + "}"
}
