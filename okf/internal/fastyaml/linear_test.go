package fastyaml

import (
	"fmt"
	"strings"
	"testing"
)

// TestFlowColumnsLinear: the columns of a long flow list's (or mapping's) items are counted on
// from the last one, each byte once. Counting each from the start of the line made a 1 MB line of
// 100,000 tags (what okf lint --fix writes for a tags string that long) take 16 s to lint.
func TestFlowColumnsLinear(t *testing.T) {
	counted := func(n int) int {
		items := make([]string, n)
		pairs := make([]string, n)
		for i := range items {
			items[i] = fmt.Sprintf("é%d", i)
			pairs[i] = fmt.Sprintf("k%d: v", i)
		}
		src := []byte("tags: [" + strings.Join(items, ", ") + "]\nm: {" + strings.Join(pairs, ", ") + "}\n")
		work := 0
		runeWork = &work
		defer func() { runeWork = nil }()
		if _, ok := fastYAML(src, nil); !ok {
			t.Fatal("not read by the fast path")
		}
		if c := strings.LastIndex(string(src), "é"); c < 0 {
			t.Fatal("no item")
		}
		return work
	}
	small, large := counted(1000), counted(4000)
	if small == 0 || large > 5*small {
		t.Errorf("4,000 items counted %d bytes, 1,000 items %d: want about 4×", large, small)
	}
}
