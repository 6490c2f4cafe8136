package trust

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/okf-tools/okf/okf"
)

// TestReportTitle checks what names a report (docs/trust.md, "The report's title"): the root
// index's title where the declared version allows one (newer than 0.2, §12: a newer minor version
// may add keys; in 0.2 the root index carries only okf_version, §8), else its first heading unless
// that is a generic word or names a section of the bundle, else the bundle folder's name.
func TestReportTitle(t *testing.T) {
	concept := "---\ntitle: Orders\ntype: table\n---\n# Orders\n"
	for _, tc := range []struct {
		name, index, want string
	}{
		{"title in a newer minor version", "---\nokf_version: \"0.3\"\ntitle: Acme Retail Knowledge\n---\n# Subdirectories\n", "Acme Retail Knowledge"},
		{"title in a newer major version", "---\nokf_version: \"1.0\"\ntitle: Acme Retail\n---\n", "Acme Retail"},
		{"title where 0.2 allows none", "---\nokf_version: \"0.2\"\ntitle: Not Allowed\n---\n# Acme Handbook\n", "Acme Handbook"},
		{"title with no version declared", "---\ntitle: Not Allowed\n---\n# Subdirectories\n", "my-kb"},
		{"title that is no string", "---\nokf_version: \"0.3\"\ntitle: [a, b]\n---\n# Acme Handbook\n", "Acme Handbook"},
		{"empty title", "---\nokf_version: \"0.3\"\ntitle: \"  \"\n---\n# Acme Handbook\n", "Acme Handbook"},
		{"a heading that names the bundle", "# Google Antigravity Knowledge Bundle\n\nIntro.\n", "Google Antigravity Knowledge Bundle"},
		{"Subdirectories", "# Subdirectories\n\n* [tables](tables/index.md) - Tables.\n", "my-kb"},
		{"Index", "# Index\n", "my-kb"},
		{"Contents, any case, with a colon", "# CONTENTS:\n", "my-kb"},
		{"Table of contents", "# Table of Contents\n", "my-kb"},
		{"Overview", "## Overview\n", "my-kb"},
		{"a heading naming a folder of the bundle", "# tables\n\n* [Orders](tables/orders.md) - Orders.\n", "my-kb"},
		{"a heading naming a concept type", "# Table\n", "my-kb"},
		{"a question opens a section", "---\ntitle: Cricket\n---\n# What Is This?\n", "my-kb"},
		{"only the first heading counts", "# Index\n\n# Acme Handbook\n", "my-kb"},
		{"no heading", "Some prose.\n", "my-kb"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root := filepath.Join(t.TempDir(), "my-kb")
			for p, s := range map[string]string{"index.md": tc.index, "tables/orders.md": concept} {
				if err := os.MkdirAll(filepath.Dir(filepath.Join(root, p)), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(filepath.Join(root, p), []byte(s), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			b, err := okf.LoadDir(root, okf.LoadOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if got := Build(b, Options{Now: fixtureNow}).Bundle; got != tc.want {
				t.Errorf("title %q, want %q", got, tc.want)
			}
		})
	}
}
