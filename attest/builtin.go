package attest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/big"
	"sort"
	"strings"
)

// builtinFunc is an attester written in Go. It sees the same request an external attester would.
type builtinFunc func(req *Request) *Verdict

// builtins are the attesters selected by `attester.resource: builtin:NAME` (D18).
var builtins = map[string]builtinFunc{
	"sql-equality": sqlEquality,
	"fidelity":     fidelityOnly,
}

// BuiltinNames lists the built-in attesters, sorted, as `builtin:NAME`.
func BuiltinNames() []string {
	var out []string
	for k := range builtins {
		out = append(out, "builtin:"+k)
	}
	sort.Strings(out)
	return out
}

// sqlEquality is builtin:sql-equality: provenance (the executed SQL equals the sanctioned SQL in
// canonical form, §10.5 step 5) plus fidelity when a value is claimed (it equals the receipt's first
// result cell).
func sqlEquality(req *Request) *Verdict {
	rec, err := receiptObject(req.Receipt)
	if err != nil {
		return failed(err.Error(), nil)
	}
	details := map[string]any{}
	if e, ok := rec["error"]; ok && !isNull(e) {
		details["error"] = json.RawMessage(e)
		return failed("the run failed, so its result cannot be attested: "+textOf(e), details)
	}
	field := "executed_sql"
	execRaw, ok := rec[field]
	if !ok {
		if execRaw, ok = rec["compiled_sql"]; ok {
			field = "compiled_sql"
		}
	}
	if !ok {
		return failed("the receipt carries no executed_sql (or compiled_sql) to compare", details)
	}
	var executed string
	if err := json.Unmarshal(execRaw, &executed); err != nil {
		return failed("the receipt's "+field+" is not a string", details)
	}
	details["compared_field"] = field
	details["canonical_sql"] = CanonicalSQL(req.SanctionedSQL, req.Runtime)
	if diff := sqlDiff(req.SanctionedSQL, executed, req.Runtime); diff != "" {
		details["provenance"] = "mismatch"
		details["canonical_executed_sql"] = CanonicalSQL(executed, req.Runtime)
		return failed("the executed SQL is not the sanctioned computation: "+diff, details)
	}
	details["provenance"] = "match"
	if isNull(req.ClaimedValue) {
		details["fidelity"] = "skipped: no claimed value"
		return &Verdict{OK: true, Details: mustJSON(details)}
	}
	if reason := fidelity(req.ClaimedValue, rec["result"], details); reason != "" {
		return failed(reason, details)
	}
	return &Verdict{OK: true, Details: mustJSON(details)}
}

// fidelityOnly is builtin:fidelity: the claimed value equals the receipt's first result cell.
func fidelityOnly(req *Request) *Verdict {
	rec, err := receiptObject(req.Receipt)
	if err != nil {
		return failed(err.Error(), nil)
	}
	details := map[string]any{}
	if isNull(req.ClaimedValue) {
		return failed("no claimed value to compare (pass --claimed)", details)
	}
	if reason := fidelity(req.ClaimedValue, rec["result"], details); reason != "" {
		return failed(reason, details)
	}
	return &Verdict{OK: true, Details: mustJSON(details)}
}

// fidelity compares the claimed value with the first result cell; "" means equal.
func fidelity(claimed, result json.RawMessage, details map[string]any) string {
	cell, why := FirstCell(result)
	if why != "" {
		details["fidelity"] = "mismatch"
		return "fidelity: " + why
	}
	details["result_cell"] = cell
	if !ValuesEqual(claimed, cell) {
		details["fidelity"] = "mismatch"
		return fmt.Sprintf("fidelity: the claimed value %s does not equal the receipt's first result cell %s", compact(claimed), compact(cell))
	}
	details["fidelity"] = "match"
	return ""
}

func failed(reason string, details map[string]any) *Verdict {
	if details == nil {
		details = map[string]any{}
	}
	return &Verdict{OK: false, Reason: strp(reason), Details: mustJSON(details)}
}

func mustJSON(v any) json.RawMessage {
	b, err := json.Marshal(v)
	if err != nil {
		return json.RawMessage("{}")
	}
	return b
}

func receiptObject(raw json.RawMessage) (map[string]json.RawMessage, error) {
	var rec map[string]json.RawMessage
	if err := json.Unmarshal(raw, &rec); err != nil || rec == nil {
		return nil, fmt.Errorf("the receipt is not a JSON object")
	}
	return rec, nil
}

func isNull(raw json.RawMessage) bool {
	t := bytes.TrimSpace(raw)
	return len(t) == 0 || string(t) == "null"
}

// textOf renders a JSON value for a message: a string without quotes, anything else compact.
func textOf(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	return string(compact(raw))
}

// FirstCell finds the first result cell of a receipt's `result` (§10.5: fidelity is checked against
// it): a list of cells (the first row, as okf's executor and the BigQuery skill write it) gives its
// first item, a list of rows gives the first row's first cell, a single-key object its value, and a
// scalar itself. why says what is wrong when there is no single first cell.
func FirstCell(result json.RawMessage) (cell json.RawMessage, why string) {
	if isNull(result) {
		return nil, "the receipt has no result"
	}
	cur := bytes.TrimSpace(result)
	for depth := 0; depth < 2; depth++ {
		switch cur[0] {
		case '[':
			var items []json.RawMessage
			if err := json.Unmarshal(cur, &items); err != nil {
				return nil, "the receipt's result is not valid JSON"
			}
			if len(items) == 0 {
				return nil, "the receipt's result is empty"
			}
			cur = bytes.TrimSpace(items[0])
		case '{':
			var obj map[string]json.RawMessage
			if err := json.Unmarshal(cur, &obj); err != nil {
				return nil, "the receipt's result is not valid JSON"
			}
			if len(obj) != 1 {
				return nil, fmt.Sprintf("the receipt's result is an object with %d keys; its first cell is ambiguous", len(obj))
			}
			for _, v := range obj {
				cur = bytes.TrimSpace(v)
			}
		default:
			return cur, ""
		}
	}
	if cur[0] == '[' || cur[0] == '{' {
		return nil, "the receipt's first result cell is itself a list or object"
	}
	return cur, ""
}

var decimalRE = &lazyRegexp{Expr: `^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$`}

// number reads a JSON number, or a string holding a decimal number (BigQuery returns NUMERIC as
// text), as an exact rational.
func number(raw json.RawMessage) (*big.Rat, bool) {
	t := strings.TrimSpace(string(raw))
	var s string
	if json.Unmarshal(raw, &s) == nil {
		t = strings.TrimSpace(s)
	}
	if !decimalRE.Get().MatchString(t) {
		return nil, false
	}
	r, ok := new(big.Rat).SetString(t)
	return r, ok
}

// ValuesEqual compares two JSON values for fidelity: numbers by exact value (12.0 equals 12, and a
// numeric string equals the number it spells), anything else by its JSON value.
func ValuesEqual(a, b json.RawMessage) bool {
	if x, ok := number(a); ok {
		if y, ok := number(b); ok {
			return x.Cmp(y) == 0
		}
	}
	var va, vb any
	if json.Unmarshal(a, &va) != nil || json.Unmarshal(b, &vb) != nil {
		return false
	}
	return bytes.Equal(mustJSON(va), mustJSON(vb))
}
