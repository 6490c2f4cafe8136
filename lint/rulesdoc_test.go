package lint

import (
	"bytes"
	"encoding/json"
	"os"
	"strings"
	"testing"
)

// TestRulesDoc keeps docs/rules.md, the page every SARIF helpUri points at, in step with the
// registry: every rule has its anchor there, and the page is what WriteRulesDoc writes.
func TestRulesDoc(t *testing.T) {
	const path = "../docs/rules.md"
	var buf bytes.Buffer
	if err := WriteRulesDoc(&buf); err != nil {
		t.Fatal(err)
	}
	if os.Getenv("OKF_UPDATE_DOCS") != "" {
		if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with OKF_UPDATE_DOCS=1 to write it)", err)
	}
	if !bytes.Equal(got, buf.Bytes()) {
		t.Errorf("%s is out of date: run OKF_UPDATE_DOCS=1 go test ./lint -run TestRulesDoc", path)
	}
	for _, r := range All() {
		uri := r.HelpURI()
		anchor := uri[strings.LastIndex(uri, "#")+1:]
		if !strings.HasPrefix(uri, DocsURL+"#") || !bytes.Contains(got, []byte(`<a id="`+anchor+`"></a>`)) {
			t.Errorf("%s: helpUri %s has no anchor in %s", r.Code, uri, path)
		}
	}
}

// TestSARIFHelpURI checks every SARIF rule carries its documentation address.
func TestSARIFHelpURI(t *testing.T) {
	var buf bytes.Buffer
	if err := (SARIFPrinter{}).Print(&buf, &Report{}); err != nil {
		t.Fatal(err)
	}
	var log struct {
		Runs []struct {
			Tool struct {
				Driver struct {
					Rules []struct {
						ID      string `json:"id"`
						HelpURI string `json:"helpUri"`
					} `json:"rules"`
				} `json:"driver"`
			} `json:"tool"`
		} `json:"runs"`
	}
	if err := json.Unmarshal(buf.Bytes(), &log); err != nil {
		t.Fatal(err)
	}
	rules := log.Runs[0].Tool.Driver.Rules
	if len(rules) != len(All()) {
		t.Fatalf("%d SARIF rules, want %d", len(rules), len(All()))
	}
	for _, r := range rules {
		if want := DocsURL + "#" + strings.ToLower(r.ID); r.HelpURI != want {
			t.Errorf("%s: helpUri %q, want %q", r.ID, r.HelpURI, want)
		}
	}
}
