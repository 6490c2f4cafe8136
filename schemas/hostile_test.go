package schemas

import (
	"fmt"
	"strings"
	"testing"
)

// bomb is nine levels of nine aliases each (9⁹ values) in a few hundred bytes.
func bomb(first string) string {
	var b strings.Builder
	b.WriteString(first + "a0: &a0 [x, x, x, x, x, x, x, x, x]\n")
	for i := 1; i <= 8; i++ {
		fmt.Fprintf(&b, "a%d: &a%d [*a%[3]d, *a%[3]d, *a%[3]d, *a%[3]d, *a%[3]d, *a%[3]d, *a%[3]d, *a%[3]d, *a%[3]d]\n", i, i, i-1)
	}
	return b.String()
}

// TestCompileRefusesAliasBomb: a bundle's YAML schema file that would expand to 9⁹ values is an
// error naming the file, not gigabytes.
func TestCompileRefusesAliasBomb(t *testing.T) {
	_, err := Compile("schemas/bomb.yaml", []byte(bomb("type: object\n")))
	if err == nil || !strings.Contains(err.Error(), "schemas/bomb.yaml") || !strings.Contains(err.Error(), "alias bomb") {
		t.Fatalf("err %v", err)
	}
	_, err = Compile("schemas/cycle.yaml", []byte("type: object\nx: &x {y: *x}\n"))
	if err == nil || !strings.Contains(err.Error(), "cycle") {
		t.Fatalf("cycle: %v", err)
	}
}

// TestValueOfBoundsAliases: even on a node nobody vetted, ValueOf expands at most
// okf.MaxAliasExpansion values through aliases (the rest stands for null) and returns.
func TestValueOfBoundsAliases(t *testing.T) {
	v := ValueOf(node(t, bomb("")))
	count := 0
	var walk func(any)
	walk = func(v any) {
		count++
		switch x := v.(type) {
		case map[string]any:
			for _, c := range x {
				walk(c)
			}
		case []any:
			for _, c := range x {
				walk(c)
			}
		}
	}
	walk(v)
	if count > 200_000 {
		t.Errorf("ValueOf produced %d values", count)
	}
	// Cycles end too (the depth limit).
	ValueOf(node(t, "x: &x {y: *x}\n"))
}
