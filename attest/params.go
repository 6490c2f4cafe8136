package attest

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/okf-tools/okf/okf"
)

// BindError lists every problem found binding parameters; no query runs when there is one.
type BindError struct {
	Problems []string
}

func (e *BindError) Error() string { return strings.Join(e.Problems, "; ") }

// ParseParamArgs reads repeated `name=value` arguments (--param). A name given twice is an error.
func ParseParamArgs(args []string) (map[string]string, error) {
	out := map[string]string{}
	for _, a := range args {
		name, value, ok := strings.Cut(a, "=")
		name = strings.TrimSpace(name)
		if !ok || name == "" {
			return nil, fmt.Errorf("--param %q: expected name=value", a)
		}
		if _, dup := out[name]; dup {
			return nil, fmt.Errorf("--param %q is given twice", name)
		}
		out[name] = value
	}
	return out, nil
}

// TypeNames lists the parameter types okf checks values against, for messages and docs.
var TypeNames = []string{"integer", "number", "string", "boolean", "date", "timestamp"}

// typeAliases maps the spellings bundles use to the checked types.
var typeAliases = map[string]string{
	"integer": "integer", "int": "integer", "int64": "integer", "bigint": "integer", "smallint": "integer",
	"number": "number", "float": "number", "float64": "number", "double": "number", "numeric": "number",
	"decimal": "number", "real": "number",
	"string": "string", "str": "string", "text": "string", "varchar": "string",
	"boolean": "boolean", "bool": "boolean",
	"date":      "date",
	"timestamp": "timestamp", "datetime": "timestamp",
}

// Bind checks supplied values against the declared parameters (§10.3: the agent may only supply
// values for declared parameters) and converts them to their declared types. An undeclared name, a
// value of the wrong type and, when requireAll is set, a missing required parameter are errors.
// Values are never put into the computation text: callers pass them to the driver as bound
// parameters.
func Bind(params []Param, supplied map[string]string, requireAll bool) (map[string]any, error) {
	var problems []string
	declared := map[string]Param{}
	for _, p := range params {
		if p.Name != "" {
			declared[p.Name] = p
		}
	}
	var names []string
	for n := range supplied {
		names = append(names, n)
	}
	sort.Strings(names)
	out := map[string]any{}
	for _, n := range names {
		p, ok := declared[n]
		if !ok {
			problems = append(problems, fmt.Sprintf("parameter %q is not declared; the computation declares: %s", n, declaredList(params)))
			continue
		}
		v, err := convert(p, supplied[n])
		if err != nil {
			problems = append(problems, err.Error())
			continue
		}
		out[n] = v
	}
	if requireAll {
		for _, p := range params {
			if _, given := supplied[p.Name]; p.Name != "" && p.Required && !given {
				problems = append(problems, fmt.Sprintf("required parameter %q (%s) is missing: pass --param %s=VALUE", p.Name, p.Type, p.Name))
			}
		}
	}
	if len(problems) > 0 {
		return nil, &BindError{Problems: problems}
	}
	return out, nil
}

func declaredList(params []Param) string {
	var names []string
	for _, p := range params {
		if p.Name != "" {
			names = append(names, p.Name)
		}
	}
	if len(names) == 0 {
		return "(none)"
	}
	return strings.Join(names, ", ")
}

// convert checks one value against its declared type.
func convert(p Param, raw string) (any, error) {
	t, ok := typeAliases[p.Type]
	if !ok {
		if p.Type == "" {
			return nil, fmt.Errorf("parameter %q declares no type, so its value cannot be checked", p.Name)
		}
		return nil, fmt.Errorf("parameter %q declares type %q, which okf cannot check; known types: %s", p.Name, p.Type, strings.Join(TypeNames, ", "))
	}
	bad := func(want string) error {
		return fmt.Errorf("parameter %q is declared %s, but %q is not %s", p.Name, p.Type, raw, want)
	}
	s := strings.TrimSpace(raw)
	switch t {
	case "integer":
		n, err := strconv.ParseInt(s, 10, 64)
		if err != nil {
			return nil, bad("an integer")
		}
		return n, nil
	case "number":
		if !decimalRE.Get().MatchString(s) {
			return nil, bad("a number")
		}
		f, err := strconv.ParseFloat(s, 64)
		if err != nil {
			return nil, bad("a number")
		}
		return f, nil
	case "boolean":
		switch strings.ToLower(s) {
		case "true":
			return true, nil
		case "false":
			return false, nil
		}
		return nil, bad("true or false")
	case "date":
		if _, err := time.Parse("2006-01-02", s); err != nil {
			return nil, bad("a date (YYYY-MM-DD)")
		}
		return s, nil
	case "timestamp":
		if _, form := okf.ParseTimestamp(s); form != okf.Full {
			return nil, bad("an RFC 3339 timestamp with an offset")
		}
		return s, nil
	}
	return raw, nil
}
