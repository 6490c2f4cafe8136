package attest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
)

func quote(s string) string { return strconv.Quote(s) }

// RequestVersion is the version of the request JSON an attester receives (D18). It changes only when
// a field changes meaning or goes away.
const RequestVersion = 1

// Request is the one JSON document an attester receives (D18). Its keys are also the keyword
// arguments a Python `attest` function may accept, so Google's reference attester
// (`attest(*, sanctioned_sql, receipt, claimed_value)`) works unchanged.
type Request struct {
	Version int `json:"okf_attest_version"`
	// Concept is the computation's concept ID.
	Concept string `json:"concept"`
	Runtime string `json:"runtime"`
	// SanctionedSQL is the computation text as the bundle holds it (§10.3), placeholders as written.
	// The name follows the reference attester; for a non-SQL runtime it is still the computation.
	SanctionedSQL string `json:"sanctioned_sql"`
	// Computation says where SanctionedSQL came from.
	Computation Source `json:"computation"`
	// Parameters are the bound values, typed per their declaration.
	Parameters map[string]any `json:"parameters"`
	// ReceiptFields are the fields `executor.receipt` requires.
	ReceiptFields []string `json:"receipt_fields"`
	// Receipt is the run's evidence, as the executor returned it.
	Receipt json.RawMessage `json:"receipt"`
	// ClaimedValue is the value about to be displayed (null when none is claimed).
	ClaimedValue json.RawMessage `json:"claimed_value"`
}

// Verdict is what an attester returns (D18): `{"ok": bool, "reason": string|null, "details": object}`.
type Verdict struct {
	OK      bool            `json:"ok"`
	Reason  *string         `json:"reason"`
	Details json.RawMessage `json:"details"`
}

// Outcome is the result of one attestation (D18). Only Pass counts as attested.
type Outcome string

// The outcomes (D18).
const (
	// Pass: the attester ran and returned ok true.
	Pass Outcome = "pass"
	// Fail: the attester ran and returned ok false, or the receipt lacks a required field.
	Fail Outcome = "fail"
	// Error: the attester could not run or broke the protocol (crash, timeout, malformed verdict).
	Error Outcome = "error"
	// Unavailable: there is nothing to run (no attester declared, or its file is missing).
	Unavailable Outcome = "unavailable"
)

// Result is one attestation, ready to print. Details is a JSON object.
type Result struct {
	Concept  string          `json:"concept"`
	Attester string          `json:"attester"`
	Kind     string          `json:"kind"`
	Outcome  Outcome         `json:"result"`
	Reason   *string         `json:"reason"`
	Details  json.RawMessage `json:"details"`
	ExitCode *int            `json:"exit_code,omitempty"`
	// StderrTail is the end of what an external attester wrote on stderr (for error and fail).
	StderrTail string `json:"stderr_tail,omitempty"`
	// Capped lists the streams that were cut at the output cap ("stdout", "stderr").
	Capped []string `json:"capped,omitempty"`
}

// Passed reports whether the attestation counts (D18).
func (r *Result) Passed() bool { return r.Outcome == Pass }

func strp(s string) *string { return &s }

// errorResult is an Error or Unavailable result with a reason.
func (r *Result) set(o Outcome, format string, a ...any) *Result {
	r.Outcome = o
	r.Reason = strp(fmt.Sprintf(format, a...))
	if len(r.Details) == 0 {
		r.Details = json.RawMessage("{}")
	}
	return r
}

// parseVerdict reads an attester's stdout strictly: exactly one JSON object with a boolean "ok",
// "reason" a string or null (absent reads as null) and "details" an object (absent reads as {}).
// Anything else is a protocol breach.
func parseVerdict(out []byte) (*Verdict, error) {
	trimmed := bytes.TrimSpace(out)
	if len(trimmed) == 0 {
		return nil, fmt.Errorf("the attester wrote no verdict on stdout")
	}
	dec := json.NewDecoder(bytes.NewReader(trimmed))
	dec.UseNumber()
	var raw map[string]json.RawMessage
	if err := dec.Decode(&raw); err != nil {
		return nil, fmt.Errorf("the verdict is not a JSON object: %v (output starts %q)", err, head(trimmed, 80))
	}
	if dec.More() {
		return nil, fmt.Errorf("the verdict is followed by more output (output starts %q)", head(trimmed, 80))
	}
	v := &Verdict{Details: json.RawMessage("{}")}
	okRaw, has := raw["ok"]
	if !has {
		return nil, fmt.Errorf(`the verdict has no "ok" field; expected {"ok": bool, "reason": string|null, "details": object}`)
	}
	if err := json.Unmarshal(okRaw, &v.OK); err != nil {
		return nil, fmt.Errorf(`the verdict's "ok" is %s, expected true or false`, head(okRaw, 60))
	}
	if r, has := raw["reason"]; has && string(r) != "null" {
		var s string
		if err := json.Unmarshal(r, &s); err != nil {
			return nil, fmt.Errorf(`the verdict's "reason" is %s, expected a string or null`, head(r, 60))
		}
		v.Reason = &s
	}
	if d, has := raw["details"]; has && string(d) != "null" {
		var obj map[string]json.RawMessage
		if err := json.Unmarshal(d, &obj); err != nil {
			return nil, fmt.Errorf(`the verdict's "details" is %s, expected an object`, head(d, 60))
		}
		v.Details = compact(d)
	}
	return v, nil
}

func head(b []byte, n int) string {
	if len(b) > n {
		return string(b[:n]) + "…"
	}
	return string(b)
}

func compact(b []byte) json.RawMessage {
	var buf bytes.Buffer
	if err := json.Compact(&buf, b); err != nil {
		return json.RawMessage(b)
	}
	return buf.Bytes()
}

// NewRequest builds the request for one attestation. claimed is the JSON of the value about to be
// displayed, or nil for none.
func NewRequest(comp *Computation, text string, params map[string]any, receipt, claimed json.RawMessage) *Request {
	if params == nil {
		params = map[string]any{}
	}
	if len(claimed) == 0 {
		claimed = json.RawMessage("null")
	}
	src := comp.Source
	src.Text = text
	return &Request{
		Version:       RequestVersion,
		Concept:       comp.ID,
		Runtime:       comp.Runtime,
		SanctionedSQL: text,
		Computation:   src,
		Parameters:    params,
		ReceiptFields: comp.Receipt,
		Receipt:       receipt,
		ClaimedValue:  claimed,
	}
}

// ClaimedJSON reads a --claimed value: JSON (a number, true, false, null, a quoted string) as that
// value, anything else as a string, so `--claimed 12.0` is the number 12.0 and `--claimed abc` the
// string "abc".
func ClaimedJSON(s string) json.RawMessage {
	t := bytes.TrimSpace([]byte(s))
	var v any
	if len(t) > 0 && json.Unmarshal(t, &v) == nil {
		switch v.(type) {
		case float64, bool, nil, string:
			return compact(t)
		}
	}
	b, _ := json.Marshal(s)
	return b
}
