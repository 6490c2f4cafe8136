package okf

import (
	"fmt"
	"testing"
)

// TestSplitFrontmatter covers D2: BOM, CRLF, empty block, unterminated, a "----" line, none, and
// delimiters with spaces or tabs around them (read as delimiters, listed as loose).
func TestSplitFrontmatter(t *testing.T) {
	tests := []struct {
		name      string
		src       string
		status    SplitStatus
		bom       bool
		yaml      string
		closeLine int
		body      string
		loose     []int
	}{
		{name: "plain", src: "---\ntype: Metric\n---\n# Body\n", status: FrontmatterOK, yaml: "type: Metric\n", closeLine: 3, body: "# Body\n"},
		{name: "bom", src: "\ufeff---\ntype: Metric\n---\nbody", status: FrontmatterOK, bom: true, yaml: "type: Metric\n", closeLine: 3, body: "body"},
		{name: "crlf", src: "---\r\ntype: Metric\r\n---\r\nbody\r\n", status: FrontmatterOK, yaml: "type: Metric\r\n", closeLine: 3, body: "body\r\n"},
		{name: "empty block", src: "---\n---\nbody", status: FrontmatterOK, yaml: "", closeLine: 2, body: "body"},
		{name: "closing line at end of file without newline", src: "---\ntype: X\n---", status: FrontmatterOK, yaml: "type: X\n", closeLine: 3, body: ""},
		{name: "unterminated", src: "---\ntype: Metric\n# Body\n", status: Unterminated, yaml: "type: Metric\n# Body\n", body: "---\ntype: Metric\n# Body\n"},
		{name: "four dashes do not close", src: "---\ntype: Metric\n----\nbody\n", status: Unterminated, yaml: "type: Metric\n----\nbody\n", body: "---\ntype: Metric\n----\nbody\n"},
		{name: "dashes with a trailing space close, loosely", src: "---\ntype: Metric\n--- \nbody\n", status: FrontmatterOK, yaml: "type: Metric\n", closeLine: 3, body: "body\n", loose: []int{3}},
		{name: "spaces and tabs around both delimiters", src: " \t---\t\r\ntype: Metric\r\n  ---  \r\nbody", status: FrontmatterOK, yaml: "type: Metric\r\n", closeLine: 3, body: "body", loose: []int{1, 3}},
		{name: "loose opening after a BOM", src: "\ufeff--- \ntype: X\n---\n", status: FrontmatterOK, bom: true, yaml: "type: X\n", closeLine: 3, body: "", loose: []int{1}},
		{name: "loose opening never closed", src: "---  \ntype: X\n", status: Unterminated, yaml: "type: X\n", body: "---  \ntype: X\n", loose: []int{1}},
		// An indented --- inside a block scalar closes the block too: the reference parser strips
		// every line before comparing (D2), and a consumer must read the file as it does.
		{name: "indented dashes in a block scalar close", src: "---\nd: |\n  a\n  ---\n  b\n---\n", status: FrontmatterOK, yaml: "d: |\n  a\n", closeLine: 4, body: "  b\n---\n", loose: []int{4}},
		{name: "four dashes with spaces do not close", src: "---\ntype: X\n ---- \n", status: Unterminated, yaml: "type: X\n ---- \n", body: "---\ntype: X\n ---- \n"},
		{name: "other whitespace is not stripped", src: "---\u00a0\ntype: X\n---\n", status: NoFrontmatter, body: "---\u00a0\ntype: X\n---\n"},
		{name: "no frontmatter", src: "# Title\n---\n", status: NoFrontmatter, body: "# Title\n---\n"},
		{name: "frontmatter not on the first line", src: "\n---\ntype: X\n---\n", status: NoFrontmatter, body: "\n---\ntype: X\n---\n"},
		{name: "opening line with four dashes", src: "----\ntype: X\n---\n", status: NoFrontmatter, body: "----\ntype: X\n---\n"},
		{name: "empty file", src: "", status: NoFrontmatter, body: ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sp := SplitFrontmatter([]byte(tt.src))
			if sp.Status != tt.status {
				t.Fatalf("status %d, want %d", sp.Status, tt.status)
			}
			if sp.BOM != tt.bom {
				t.Errorf("BOM %v, want %v", sp.BOM, tt.bom)
			}
			if string(sp.YAML) != tt.yaml {
				t.Errorf("yaml %q, want %q", sp.YAML, tt.yaml)
			}
			if sp.CloseLine != tt.closeLine {
				t.Errorf("close line %d, want %d", sp.CloseLine, tt.closeLine)
			}
			if string(sp.Body) != tt.body {
				t.Errorf("body %q, want %q", sp.Body, tt.body)
			}
			if got := tt.src[sp.BodyOffset:]; got != tt.body {
				t.Errorf("body offset %d gives %q, want %q", sp.BodyOffset, got, tt.body)
			}
			if fmt.Sprint(sp.Loose) != fmt.Sprint(tt.loose) {
				t.Errorf("loose delimiters on lines %v, want %v", sp.Loose, tt.loose)
			}
			if tt.status != NoFrontmatter && sp.YAMLLine != 2 {
				t.Errorf("yaml line %d, want 2", sp.YAMLLine)
			}
		})
	}
}

// TestYAMLErrorLine checks the one place that reads yaml.v3's line numbers out of its messages.
func TestYAMLErrorLine(t *testing.T) {
	tests := []struct {
		src  string
		line int
	}{
		{"a: b: c\n", 1},                  // yaml.v3 gives no line for the first line
		{"x: 1\ndesc: a: b\n", 2},         // "yaml: line 2: …"
		{"x: 1\ny: 2\nz: [1, 2\n", 3},     // unclosed flow sequence: where it opened (parser stage)
		{"type: [\n", 1},                  // found at the end: the block's last line
		{"x: 1\n  y: 2\n", 2},             // bad indentation
		{"x: \"open\nother: 1\n", 2},      // unclosed quote: found at the end, the last line
		{"list:\n  - a\n - b\n", 3},       // bad sequence indentation
		{"title: héllo: wörld\n", 1},      // multi-byte characters do not move the line
		{"k: v\n\tx: tab\n", 2},           // a tab where indentation is expected
		{"k: v\nk2: [a, b]]\n", 2},        // stray bracket
		{"k: v\n? complex\n: v2\nx\n", 4}, // a line that is neither key nor value
	}
	for _, tt := range tests {
		_, err := decodeYAML([]byte(tt.src), 1, nil)
		if err == nil {
			t.Errorf("%q: no error", tt.src)
			continue
		}
		ye, ok := err.(*yamlError)
		if !ok {
			t.Errorf("%q: error %T %v, want *yamlError", tt.src, err, err)
			continue
		}
		if ye.Line != tt.line {
			t.Errorf("%q: line %d (%s), want %d", tt.src, ye.Line, ye.Msg, tt.line)
		}
	}
}
