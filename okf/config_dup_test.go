package okf

import (
	"errors"
	"fmt"
	"strings"
	"testing"
)

// TestConfigDuplicates: a key written twice at any depth, and one rule set by its code and by its
// name, are problems (YAML keeps only the last, so a setting would be dropped without a word); a
// file of thousands of problems keeps the first MaxConfigProblems and counts the rest.
func TestConfigDuplicates(t *testing.T) {
	for src, want := range map[string]string{
		"rules:\n  OKF101: off\nrules:\n  OKF102: off\n":  `key "rules" written twice (first on line 1)`,
		"rules: {OKF101: off, OKF101: warning}\n":         `key "OKF101" written twice (first on line 1)`,
		"overrides:\n  - paths: [a]\n    paths: [b]\n":    `key "paths" written twice (first on line 2)`,
		"ignore: [a]\nmax_file_size: 1KiB\nignore: [b]\n": `key "ignore" written twice (first on line 1)`,
	} {
		_, err := ParseConfig(".okf.yaml", []byte(src))
		var ce *ConfigError
		if !errors.As(err, &ce) || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: %v, want %q", src, err, want)
		}
	}
	var b strings.Builder
	for i := 0; i < 5000; i++ {
		fmt.Fprintf(&b, "k%d: 1\nk%d: 2\n", i, i)
	}
	_, err := ParseConfig(".okf.yaml", []byte(b.String()))
	var ce *ConfigError
	if !errors.As(err, &ce) || len(ce.Problems) != MaxConfigProblems || ce.More == 0 {
		t.Errorf("5,000 duplicates: %d problems kept, %d more", len(ce.Problems), ce.More)
	}
}

// TestConfigSizeSaysWhy: a max_file_size that is a number but no size says what is wrong with it.
func TestConfigSizeSaysWhy(t *testing.T) {
	for src, want := range map[string]string{
		"max_file_size: -5\n":                   "a size cannot be negative",
		"max_file_size: 99999999999999999999\n": "more bytes than okf can count",
	} {
		if _, err := ParseConfig(".okf.yaml", []byte(src)); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: %v, want %q", src, err, want)
		}
	}
}
