package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestSARIFFingerprintsIgnoreOtherBundles checks that a finding's SARIF partialFingerprints do not
// change when the run also lints another bundle: code scanning matches alerts by fingerprint, so
// adding a second bundle to the CI command (or a monorepo pre-commit run) must not close and
// reopen the first bundle's alerts. The fingerprint is the baseline's key (path from the bundle
// root, code, message), whichever bundles share the run.
func TestSARIFFingerprintsIgnoreOtherBundles(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"kb1/index.md":  "# One\n\n* [A](a.md) - a\n",
		"kb1/a.md":      "---\ntype: Note\ntitle: A\ndescription: A note.\ntags: \"x, y\"\n---\n# A\n\nSee [gone](gone.md).\n",
		"kb2/index.md":  "# Two\n\n* [B](b.md) - b\n",
		"kb2/b.md":      "---\ntype: Note\ntitle: B\ndescription: B note.\n---\n# B\n\nSee [gone](gone.md).\n",
		"kb1/.okf.yaml": "",
		"kb2/.okf.yaml": "",
	}
	for name, text := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// fingerprints maps each result of kb1/a.md (rule and message) to its fingerprint.
	fingerprints := func(args ...string) map[string]string {
		t.Helper()
		var out, errb bytes.Buffer
		run(append([]string{"okf", "lint", "-f", "sarif", "--now", "2026-09-01T00:00:00Z"}, args...), strings.NewReader(""), &out, &errb, func(string) string { return "" })
		var log struct {
			Runs []struct {
				Results []struct {
					RuleID    string                `json:"ruleId"`
					Message   struct{ Text string } `json:"message"`
					Locations []struct {
						PhysicalLocation struct {
							ArtifactLocation struct{ URI string } `json:"artifactLocation"`
						} `json:"physicalLocation"`
					} `json:"locations"`
					PartialFingerprints map[string]string `json:"partialFingerprints"`
				} `json:"results"`
			} `json:"runs"`
		}
		if err := json.Unmarshal(out.Bytes(), &log); err != nil {
			t.Fatalf("okf lint %v: %v\n%s%s", args, err, out.String(), errb.String())
		}
		got := map[string]string{}
		for _, r := range log.Runs[0].Results {
			if strings.HasSuffix(r.Locations[0].PhysicalLocation.ArtifactLocation.URI, "kb1/a.md") {
				got[r.RuleID+" "+r.Message.Text] = r.PartialFingerprints["okfFinding/v1"]
			}
		}
		return got
	}
	alone := fingerprints(filepath.Join(dir, "kb1"))
	both := fingerprints(filepath.Join(dir, "kb1"), filepath.Join(dir, "kb2"))
	if len(alone) < 2 {
		t.Fatalf("want the tags and broken-link findings of kb1/a.md, got %v", alone)
	}
	for k, fp := range alone {
		if both[k] != fp {
			t.Errorf("%s: fingerprint %s alone, %q beside kb2", k, fp, both[k])
		}
	}
}
