package serve

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/tiktoken-go/tokenizer"
)

// toolsBudget is the most the whole tools/list result may cost in a model's context, in o200k
// tokens: every host sends it with every call.
const toolsBudget = 600

func TestToolsListBudget(t *testing.T) {
	enc, err := tokenizer.Get(tokenizer.O200kBase)
	if err != nil {
		t.Skipf("o200k tokenizer: %v", err)
	}
	s, _ := newServer(t, "testdata/bundle", 0)
	c := inMemory(t, s, eras[0])
	res, err := c.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	// The result as a host receives it (the tools array is what it forwards to the model).
	raw, err := json.Marshal(res)
	if err != nil {
		t.Fatal(err)
	}
	n, err := enc.Count(string(raw))
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("tools/list: %d bytes, %d o200k tokens (budget %d)", len(raw), n, toolsBudget)
	if n > toolsBudget {
		t.Errorf("tools/list costs %d o200k tokens, over the budget of %d:\n%s", n, toolsBudget, raw)
	}
}
