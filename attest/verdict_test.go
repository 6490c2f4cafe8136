package attest

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestParseVerdict(t *testing.T) {
	good := []struct{ in, ok, reason, details string }{
		{`{"ok": true, "reason": null, "details": {"a": 1}}`, "true", "<nil>", `{"a":1}`},
		{`{"ok": false, "reason": "sql differs", "details": {}}`, "false", "sql differs", `{}`},
		{"\n  {\"ok\": true}\n", "true", "<nil>", `{}`},
		{`{"ok": true, "reason": null, "details": null}`, "true", "<nil>", `{}`},
	}
	for _, g := range good {
		v, err := parseVerdict([]byte(g.in))
		if err != nil {
			t.Errorf("parseVerdict(%q): %v", g.in, err)
			continue
		}
		reason := "<nil>"
		if v.Reason != nil {
			reason = *v.Reason
		}
		if ok, _ := json.Marshal(v.OK); string(ok) != g.ok || reason != g.reason || string(v.Details) != g.details {
			t.Errorf("parseVerdict(%q) = %v %q %s, want %s %q %s", g.in, v.OK, reason, v.Details, g.ok, g.reason, g.details)
		}
	}
	bad := []struct{ in, want string }{
		{``, "no verdict"},
		{`verdict: fine`, "not a JSON object"},
		{`[true]`, "not a JSON object"},
		{`{"reason": null}`, `no "ok" field`},
		{`{"ok": "yes"}`, `"ok" is "yes"`},
		{`{"ok": 1}`, `"ok" is 1`},
		{`{"ok": true, "reason": 3}`, `"reason" is 3`},
		{`{"ok": true, "details": [1]}`, `"details" is [1]`},
		{`{"ok": true} {"ok": false}`, "followed by more output"},
		{`{"ok": true} trailing`, "followed by more output"},
	}
	for _, b := range bad {
		_, err := parseVerdict([]byte(b.in))
		if err == nil {
			t.Errorf("parseVerdict(%q) accepted a malformed verdict", b.in)
			continue
		}
		if !strings.Contains(err.Error(), b.want) {
			t.Errorf("parseVerdict(%q) = %q, want it to mention %q", b.in, err, b.want)
		}
	}
}

func TestClaimedJSON(t *testing.T) {
	cases := map[string]string{"12.0": "12.0", "12": "12", "true": "true", "abc": `"abc"`, `"x"`: `"x"`, "[1]": `"[1]"`, "": `""`}
	for in, want := range cases {
		if got := string(ClaimedJSON(in)); got != want {
			t.Errorf("ClaimedJSON(%q) = %s, want %s", in, got, want)
		}
	}
}
