package lint

import (
	"fmt"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/okf-tools/okf/okf"
	"github.com/okf-tools/okf/schemas"
)

// TestSchemaVerdictReview is a second, independent differential check of the schema check's fast
// path (projection + verdicts remembered by shape): random frontmatters in block and flow style,
// with scalars yaml.v3 reads in unusual ways (hexadecimal, octal, binary and underscored integers,
// integers beyond int64, infinities, NaN, exponents, signs, quoted numbers, every spelling of
// booleans and null, timestamps), anchors, aliases and merge keys, unknown keys inside entries.
// For every conformant concept, checkConcept's built-in violations must be base.Validate's.
// OKF_SCHEMA_REVIEW=n runs n cases instead of the default.
func TestSchemaVerdictReview(t *testing.T) {
	n := 3000
	if s := os.Getenv("OKF_SCHEMA_REVIEW"); s != "" {
		n, _ = strconv.Atoi(s)
	}
	base, err := schemas.Concept()
	if err != nil {
		t.Fatal(err)
	}
	scalars := []string{`""`, `''`, `s`, `"s"`, `5`, `+5`, `-0`, `0`, `-3`, `1.0`, `1e3`, `-1e3`, `1.5e-3`, `0x1F`, `-0x1F`, `0o17`,
		`0b101`, `017`, `1_000`, `9223372036854775808`, `18446744073709551615`, `-9223372036854775809`, `1e400`,
		`.inf`, `-.inf`, `.nan`, `.5`, `-.5`, `true`, `True`, `FALSE`, `yes`, `null`, `Null`, `~`, `2026-01-02`,
		`2026-01-02T03:04:05Z`, `"2026-01-02"`, `"5"`, `"-3"`, `é`}
	keys := []string{"type", "title", "description", "tags", "sources", "usage_window", "generated", "verified",
		"status", "stale_after", "runtime", "parameters", "computation", "executor", "attester", "timestamp", "resource", "other"}
	fields := []string{"id", "resource", "title", "author", "usage_count", "last_modified", "by", "at", "from", "to",
		"name", "type", "required", "receipt", "usage_window", "extra"}
	r := rand.New(rand.NewPCG(3, 9))
	var value func(depth, indent int) string
	value = func(depth, indent int) string {
		pad := strings.Repeat(" ", indent+2)
		switch k := r.IntN(12); {
		case k < 5 || depth > 2:
			if r.IntN(3) == 0 {
				return " " + scalars[r.IntN(len(scalars))]
			}
			return " s" // mostly valid, so that clean shapes are remembered and reused too
		case k < 6:
			return "" // null by absence
		case k < 8:
			var items []string
			for range r.IntN(3) {
				items = append(items, "\n"+pad+"-"+value(depth+1, indent+2))
			}
			if len(items) == 0 {
				return " []"
			}
			return strings.Join(items, "")
		case k < 9:
			var items []string
			for range r.IntN(3) {
				items = append(items, strings.TrimSpace(value(3, 0)))
			}
			return " [" + strings.Join(items, ", ") + "]"
		default:
			var items []string
			used := map[string]bool{}
			for range r.IntN(4) {
				f := fields[r.IntN(len(fields))]
				if used[f] {
					continue
				}
				used[f] = true
				items = append(items, "\n"+pad+f+":"+value(depth+1, indent+2))
			}
			if len(items) == 0 {
				return " {}"
			}
			return strings.Join(items, "")
		}
	}
	// Found by this test: a merge key inside verified, whose merged `at` the typed model (D3) and so
	// the projection saw, and the exact check did not (it reported verified.at where none is written).
	fixed := []string{
		"---\ntype: Metric\nverified:\n  <<: {at: 5}\n  by: y\n---\n",
		"---\ntype: Metric\nanchor: &a\n  at: -5\nverified:\n  <<: *a\n  by: y\n---\n",
		"---\n<<: {type: 5, title: [x]}\n---\n",
	}
	cache := newShapeCache()
	checked, failing := 0, 0
	for i := range n + len(fixed) {
		var b strings.Builder
		if i >= n {
			b.WriteString(fixed[i-n])
		} else {
			b.WriteString(randomReviewDoc(r, scalars, keys, value))
		}
		doc := b.String()
		c, _ := okf.ParseConcept("x.md", []byte(doc))
		if !c.Conformant() {
			continue
		}
		node, err := c.Frontmatter.Node()
		if err != nil {
			continue
		}
		checked++
		want := base.Validate(node)
		if len(want) > 0 {
			failing++
		}
		got := checkConcept(c, base, nil, cache, c.Frontmatter.Node)
		if len(got) != len(want) {
			t.Fatalf("doc %d:\n%s\ngot:  %+v\nwant: %+v", i, doc, got, want)
		}
		for j := range got {
			if int(got[j].Pos.Line) != want[j].Line || int(got[j].Pos.Col) != want[j].Col || !strings.HasSuffix(got[j].Message, ": "+want[j].Message) {
				t.Fatalf("doc %d:\n%s\ngot:  %+v\nwant: %+v", i, doc, got, want)
			}
		}
	}
	t.Logf("%d checked, %d failing", checked, failing)
	if checked < n/3 || failing < checked/5 {
		t.Fatalf("%d of %d checked, %d failing", checked, n, failing)
	}
}

func randomReviewDoc(r *rand.Rand, scalars, keys []string, value func(depth, indent int) string) string {
	var b strings.Builder
	b.WriteString("---\n")
	if r.IntN(6) > 0 {
		b.WriteString("type: Metric\n")
	}
	if r.IntN(8) == 0 {
		b.WriteString("anchor: &a\n  by: x\n  at: -5\n  usage_count: -2\n  id: 7\n")
	}
	used := map[string]bool{"type": true}
	for range 1 + r.IntN(5) {
		k := keys[r.IntN(len(keys))]
		if used[k] {
			continue
		}
		used[k] = true
		v := value(0, 0)
		switch {
		case strings.Contains(b.String(), "&a") && r.IntN(4) == 0:
			v = " *a"
		case strings.Contains(b.String(), "&a") && r.IntN(3) == 0:
			v = "\n  <<: *a\n  by: y"
		case (k == "sources" || k == "verified" || k == "parameters") && r.IntN(2) == 0:
			var items []string
			for range 1 + r.IntN(2) {
				items = append(items, fmt.Sprintf("\n  - id: a\n    usage_count:%s\n    by:%s\n    name:%s\n    required:%s",
					value(3, 0), value(3, 0), value(3, 0), value(3, 0)))
			}
			v = strings.Join(items, "")
		}
		fmt.Fprintf(&b, "%s:%s\n", k, v)
	}
	b.WriteString("---\n")
	return b.String()
}
