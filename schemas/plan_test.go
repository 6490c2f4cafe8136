package schemas

import (
	"reflect"
	"slices"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

func mapping(t *testing.T, src string) *yaml.Node {
	t.Helper()
	var doc yaml.Node
	if err := yaml.Unmarshal([]byte(src), &doc); err != nil {
		t.Fatal(err)
	}
	return doc.Content[0]
}

// TestPlanWordsWhatIsFound: a plan read from one frontmatter's error tree, applied to another of
// the same shape, words what is found in the other: a date where the first had a string gives
// "found a date", at the other's position, as validating the other does.
func TestPlanWordsWhatIsFound(t *testing.T) {
	s, err := Concept()
	if err != nil {
		t.Fatal(err)
	}
	first := mapping(t, "type: Record\ntags: abc\n")
	plan := PlanOf(s.Check(ValueOf(first)))
	for _, c := range []struct{ src, found string }{
		{"type: Record\ntags: abc\n", "a string"},
		{"type: Record\n\ntags: 2025-01-02\n", "a date"},
		{"type: Record\ntags: 'quoted'\n", "a string"},
	} {
		n := mapping(t, c.src)
		got, want := plan.Violations(n), s.Validate(n)
		if len(got) != 1 || got[0].Message != "expected a list, found "+c.found || !reflect.DeepEqual(got, want) {
			t.Fatalf("%q:\nplan:  %+v\nfresh: %+v", c.src, got, want)
		}
		if line := strings.Count(c.src[:strings.Index(c.src, "tags")], "\n") + 1; got[0].Line != line {
			t.Fatalf("%q: violation at line %d, tags is at line %d", c.src, got[0].Line, line)
		}
	}
	if PlanOf(nil).Violations(first) != nil {
		t.Fatal("no error tree should have no violations")
	}
}

// TestDescriptionsAreDescribes: every answer of describe is one of the descriptions a plan words
// its messages for.
func TestDescriptionsAreDescribes(t *testing.T) {
	n := mapping(t, "a: {x: 1}\nb: [1]\nc: null\nd: true\ne: 1\nf: 1.5\ng: 2025-01-02\nh: s\ni: &x 1\nj: *x\n")
	seen := map[string]bool{}
	for i := 1; i < len(n.Content); i += 2 {
		d := describe(n.Content[i])
		seen[d] = true
		if !slices.Contains(descriptions[:], d) {
			t.Errorf("describe gives %q, not among the descriptions", d)
		}
	}
	for _, d := range []string{describe(&yaml.Node{}), describe(&yaml.Node{Kind: yaml.AliasNode})} {
		seen[d] = true
		if !slices.Contains(descriptions[:], d) {
			t.Errorf("describe gives %q, not among the descriptions", d)
		}
	}
	if len(seen) != len(descriptions) {
		t.Errorf("describe gave %d of the %d descriptions: %v", len(seen), len(descriptions), seen)
	}
}
