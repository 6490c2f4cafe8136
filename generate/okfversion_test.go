package generate

import "testing"

// TestSetOKFVersionInPlace: raising the root index's okf_version changes the text of that value
// and nothing else. The whole frontmatter was encoded again: a person's flow spacing, a folded
// scalar's lines and the spaces before a comment were rewritten (the meaning was kept, the text was
// not), and a CRLF index got an LF frontmatter.
func TestSetOKFVersionInPlace(t *testing.T) {
	for in, want := range map[string]string{
		"---\n# keep\nokf_version: '0.1'   # bump\nextra: {a: 1,   b: [x, y]}\nlong: >-\n  folded\n  text\n---\n# Hi\n": "---\n# keep\nokf_version: '0.2'   # bump\nextra: {a: 1,   b: [x, y]}\nlong: >-\n  folded\n  text\n---\n# Hi\n",
		"---\nokf_version: 0.1\nx:   1\n---\n":           "---\nokf_version: \"0.2\"\nx:   1\n---\n",
		"---\r\nokf_version: \"0.1\"\r\n---\r\n# Hi\r\n": "---\r\nokf_version: \"0.2\"\r\n---\r\n# Hi\r\n",
		"---\r\ntitle:  Root\r\n---\r\n# Hi\r\n":         "---\r\ntitle:  Root\r\nokf_version: \"0.2\"\r\n---\r\n# Hi\r\n",
		"# Hi\r\n":                                       "---\r\nokf_version: \"0.2\"\r\n---\r\n\r\n# Hi\r\n",
	} {
		if got := string(setOKFVersion([]byte(in), "0.2")); got != want {
			t.Errorf("setOKFVersion(%q)\n = %q\nwant %q", in, got, want)
		}
	}
}
