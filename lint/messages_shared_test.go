package lint

import (
	"fmt"
	"runtime"
	"testing"
	"testing/fstest"
	"unsafe"

	"github.com/okf-tools/okf/okf"
)

// TestEqualMessagesShareOneString: the findings a rule reports on many concepts with the same
// words (heading-missing, whose message has no argument; a description of two sentences; an
// actor written the same way in every file) keep one string between them in a stream, as the
// findings of a large bundle are held to the end of the run (one string a loading worker).
func TestEqualMessagesShareOneString(t *testing.T) {
	fsys := fstest.MapFS{}
	for i := range 40 {
		fsys[fmt.Sprintf("c%02d.md", i)] = &fstest.MapFile{Data: []byte(fmt.Sprintf(
			"---\ntype: Note\ntitle: C%d\ndescription: One. Two.\ngenerated:\n  by: record-bot\n  at: 2026-01-02T00:00:00Z\n---\nText [x](c%02d.md).\n", i, (i+1)%40))}
	}
	s := NewStream(Options{Now: fixtureNow})
	b, err := okf.Load(fsys, okf.LoadOptions{OnConcept: s.OnConcept})
	if err != nil {
		t.Fatal(err)
	}
	byText := map[string]map[*byte]int{}
	for _, d := range s.Finish(b) {
		if byText[d.Message] == nil {
			byText[d.Message] = map[*byte]int{}
		}
		byText[d.Message][unsafe.StringData(d.Message)]++
	}
	// Each loading worker's pass keeps its own last message of each rule.
	most := min(2*runtime.GOMAXPROCS(0), 8)
	repeated := 0
	for text, strs := range byText {
		n := 0
		for _, k := range strs {
			n += k
		}
		if n < 40 {
			continue
		}
		repeated++
		if len(strs) > most {
			t.Errorf("%d strings hold the %d findings %q", len(strs), n, text)
		}
	}
	if repeated < 3 {
		t.Fatalf("%d messages reported on every concept, want heading-missing's, description-not-one-sentence's and actor-unconventional's", repeated)
	}
}
