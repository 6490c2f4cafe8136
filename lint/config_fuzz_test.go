package lint

import (
	"errors"
	"testing"

	"github.com/okf-tools/okf/okf"
)

// FuzzParseConfig feeds arbitrary text to the configuration parser: it must never panic, every
// problem must be at the configuration file, and a failure is always a *okf.ConfigError.
func FuzzParseConfig(f *testing.F) {
	for _, s := range []string{"rules: {OKF001: off}\n", "a: &x [1]\nrules: *x\n", "overrides: [[1], {paths: *q}]\n", "schemas: {? [a]: b}\n", "ignore: {a: b}\n", "expiring_within: 99999999999d\n", "---\n...\n"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		c, err := ParseConfig("c", []byte(s))
		if c == nil {
			t.Fatal("no configuration returned")
		}
		if err == nil {
			return
		}
		var ce *okf.ConfigError
		if !errors.As(err, &ce) || len(ce.Problems) == 0 {
			t.Fatalf("error %T %v", err, err)
		}
		for _, p := range ce.Problems {
			if p.Pos.Path != "c" {
				t.Fatal(p)
			}
		}
	})
}
