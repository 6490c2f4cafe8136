package suggest

import (
	"fmt"
	"strings"
)

// UnknownValue is the error for a value outside a closed list (a flag's format, a severity, an
// engine, a schema name): every command words it the same way, with the nearest value when one is
// close (a misspelling is the usual cause) and else the values expected. what names the kind of
// value ("format"); want lists the values accepted, in the order help lists them.
func UnknownValue(what, got string, want []string) error {
	return &UnknownValueError{What: what, Got: got, Want: want, Suggestion: Closest(got, want)}
}

// UnknownValueError is what UnknownValue returns, for callers that word the suggestion themselves.
type UnknownValueError struct {
	What, Got  string
	Want       []string
	Suggestion string // "" when no value is close
}

// Error is the one wording: the nearest value when one is close, else the values expected.
func (e *UnknownValueError) Error() string {
	msg := fmt.Sprintf("unknown %s %q", e.What, e.Got)
	if e.Suggestion != "" {
		return msg + fmt.Sprintf("; did you mean %q?", e.Suggestion)
	}
	return msg + "; expected " + OrList(e.Want)
}

// OrList writes values as a sentence offers a choice: "a", "a or b", "a, b or c".
func OrList(values []string) string {
	switch len(values) {
	case 0:
		return "nothing"
	case 1:
		return values[0]
	}
	return strings.Join(values[:len(values)-1], ", ") + " or " + values[len(values)-1]
}
