package attest

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

// maxMessage bounds what a parser error may echo from its input: an attester controls its output,
// and a reason that copies megabytes of it would flood logs.
const maxMessage = 600

// FuzzParseVerdict feeds arbitrary attester output to the verdict parser: it never panics, its
// errors stay short, and what it accepts is a well-formed verdict that reads back the same.
func FuzzParseVerdict(f *testing.F) {
	for _, s := range []string{
		`{"ok": true, "reason": null, "details": {}}`,
		`{"ok": false, "reason": "mismatch", "details": {"a": [1, 2.50, "x"]}}`,
		`{"ok": true}`,
		`{"ok": "yes"}`,
		`{"ok": true} {"ok": false}`,
		`{"ok": true, "details": null, "reason": null}`,
		`[true]`,
		``,
		"\x00\xff{",
		`{"ok": "` + strings.Repeat("x", 5000) + `"}`,
		`{"ok": true, "reason": [` + strings.Repeat("1,", 3000) + `1]}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, out []byte) {
		v, err := parseVerdict(out)
		if err != nil {
			if len(err.Error()) > maxMessage {
				t.Fatalf("error message is %d bytes, want at most %d", len(err.Error()), maxMessage)
			}
			return
		}
		if !json.Valid(v.Details) || !bytes.HasPrefix(bytes.TrimSpace(v.Details), []byte("{")) {
			t.Fatalf("accepted details %q are not a JSON object", v.Details)
		}
		again, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		w, err := parseVerdict(again)
		if err != nil {
			t.Fatalf("the verdict re-encoded as %s does not parse: %v", again, err)
		}
		if w.OK != v.OK || (w.Reason == nil) != (v.Reason == nil) || (w.Reason != nil && *w.Reason != *v.Reason) || !bytes.Equal(compact(w.Details), compact(v.Details)) {
			t.Fatalf("round trip changed the verdict: %+v became %+v", v, w)
		}
	})
}

// FuzzReceipt runs the builtin attesters and the receipt checks over an arbitrary receipt and
// claimed value: no panic, and every verdict's details are a JSON object.
func FuzzReceipt(f *testing.F) {
	f.Add([]byte(`{"run_id": "r", "executed_sql": "SELECT SUM(amount) FROM sales WHERE year = @year", "result": [300.5]}`), []byte("300.50"), "SELECT SUM(amount) FROM sales WHERE year = @year")
	f.Add([]byte(`{"executed_sql": 7, "result": "x", "error": "boom"}`), []byte(`"x"`), "SELECT 1")
	f.Add([]byte(`{"compiled_sql": "select 1", "result": [[1e400]]}`), []byte("1e400"), "select 1")
	f.Add([]byte(`{"result": []}`), []byte("null"), "")
	f.Add([]byte(`[1]`), []byte("true"), "SELECT `a.b` FROM \"t\"")
	f.Fuzz(func(t *testing.T, receipt, claimed []byte, sanctioned string) {
		if !json.Valid(receipt) {
			return // the CLI refuses a receipt that is not JSON before any attester sees it
		}
		if !json.Valid(claimed) {
			claimed = ClaimedJSON(string(claimed))
		}
		_ = missingFields(receipt, []string{"run_id", "executed_sql", "result"})
		for _, rt := range []string{"sqlite", "postgres", "bigquery"} {
			req := &Request{Runtime: rt, SanctionedSQL: sanctioned, Receipt: receipt, ClaimedValue: claimed}
			for name, fn := range builtins {
				v := fn(req)
				if v == nil || !json.Valid(v.Details) || !bytes.HasPrefix(v.Details, []byte("{")) {
					t.Fatalf("%s on %s: details %v are not a JSON object", name, rt, v)
				}
			}
		}
		var rec map[string]json.RawMessage
		if json.Unmarshal(receipt, &rec) == nil {
			cell, _ := FirstCell(rec["result"])
			if len(cell) > 0 && ValuesEqual(cell, claimed) != ValuesEqual(claimed, cell) {
				t.Fatalf("ValuesEqual is not symmetric on %s and %s", cell, claimed)
			}
		}
	})
}
