package lint

import "testing"

// FuzzParseConfig feeds arbitrary text to the configuration parser: it must never panic, and every
// problem must be a finding in the configuration file.
func FuzzParseConfig(f *testing.F) {
	for _, s := range []string{"rules: {OKF001: off}\n", "a: &x [1]\nrules: *x\n", "overrides: [[1], {paths: *q}]\n", "schemas: {? [a]: b}\n", "ignore: {a: b}\n", "expiring_within: 99999999999d\n", "---\n...\n"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		c := ParseConfig("c", []byte(s))
		for _, d := range c.Diagnostics {
			if d.Pos.Path != "c" {
				t.Fatal(d)
			}
		}
	})
}
