package lint

import (
	"fmt"
	"io"
	"sort"
	"strings"
	"time"

	"github.com/okf-tools/okf/internal/bytesize"
	"github.com/okf-tools/okf/internal/escape"
	"github.com/okf-tools/okf/okf"
	"go.yaml.in/yaml/v3"
)

// ShownConfig is what `okf lint --show-config` prints for one bundle: the configuration in force
// once the defaults, .okf.yaml (or --config) and the flags are applied, as ruff's --show-settings
// and ESLint's --print-config print theirs, so a user can see what a run will check without
// reading the code.
type ShownConfig struct {
	// Bundle is the bundle root as shown; Source the configuration file read ("" for none).
	Bundle, Source string
	// Config is the configuration read (nil for none).
	Config *Config
	// MaxFileSize is the size limit in force (the flag's, the configuration's or the default).
	MaxFileSize int64
	// ExpiringWithin is --expiring-within as Options takes it (0: not given).
	ExpiringWithin time.Duration
}

// WriteShownConfig prints each bundle's configuration in force as a YAML document (one per bundle,
// in the order given): every key of .okf.yaml with its value, every rule with its severity for the
// whole bundle (off, error, warning or info; its name as a comment), and the overrides as written.
// The output is deterministic and itself a valid .okf.yaml after the first two keys (bundle and
// config, which say where it comes from).
func WriteShownConfig(w io.Writer, shown []ShownConfig) error {
	for i, s := range shown {
		if i > 0 {
			if _, err := io.WriteString(w, "---\n"); err != nil {
				return err
			}
		}
		var buf strings.Builder
		enc := yaml.NewEncoder(&buf)
		enc.SetIndent(2)
		if err := enc.Encode(s.node()); err != nil {
			return err
		}
		if err := enc.Close(); err != nil {
			return err
		}
		data := buf.String()
		// Values come from the bundle: each line escaped as any line okf prints of it (no control
		// character, no workflow command a CI runner would read).
		lines := strings.SplitAfter(data, "\n")
		for i, l := range lines {
			if body, ok := strings.CutSuffix(l, "\n"); ok {
				lines[i] = escape.LineStart(body) + "\n"
			} else {
				lines[i] = escape.LineStart(l)
			}
		}
		if _, err := io.WriteString(w, strings.Join(lines, "")); err != nil {
			return err
		}
	}
	return nil
}

func (s ShownConfig) node() *yaml.Node {
	m := &yaml.Node{Kind: yaml.MappingNode}
	put := func(k string, v *yaml.Node, comment string) {
		kn := str(k)
		if v.Kind == yaml.ScalarNode || v.Style == yaml.FlowStyle {
			v.LineComment = comment
		} else {
			kn.HeadComment = comment
		}
		m.Content = append(m.Content, kn, v)
	}
	put("bundle", str(s.Bundle), "")
	src := str(s.Source)
	if s.Source == "" {
		src = &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!null", Value: "null"}
	}
	put("config", src, "the file read for lint's own keys; null: none, the defaults apply")
	c := s.Config
	if c == nil {
		c = &Config{}
	}
	ign := &yaml.Node{Kind: yaml.SequenceNode, Style: yaml.FlowStyle}
	for _, p := range c.Ignore {
		ign.Content = append(ign.Content, str(p))
	}
	put("ignore", ign, "the bundle's .okf.yaml's, always; .okfignore's patterns apply too")
	put("max_file_size", &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!int", Value: fmt.Sprint(s.MaxFileSize)}, bytesize.Format(s.MaxFileSize))
	window := s.ExpiringWithin
	if window == 0 {
		window = c.ExpiringWithin
	}
	switch {
	case window == 0:
		window = okf.DefaultExpiringWindow
	case window < 0:
		window = 0
	}
	put("expiring_within", str(formatWindow(window)), "")
	schemas := &yaml.Node{Kind: yaml.MappingNode}
	for _, t := range c.SchemaTypes() {
		schemas.Content = append(schemas.Content, str(t), str(c.Schemas[t].Path))
	}
	put("schemas", schemas, "")
	rules := &yaml.Node{Kind: yaml.MappingNode}
	for _, r := range All() {
		rules.Content = append(rules.Content, str(r.Code), withComment(str(settingWord(c.setting(r, "", r.Severity))), r.Name))
	}
	put("rules", rules, "every rule, as it applies outside the overrides")
	ovs := &yaml.Node{Kind: yaml.SequenceNode}
	for _, o := range c.Overrides {
		om := &yaml.Node{Kind: yaml.MappingNode}
		paths := &yaml.Node{Kind: yaml.SequenceNode, Style: yaml.FlowStyle}
		for _, p := range o.Patterns {
			paths.Content = append(paths.Content, str(p))
		}
		rs := &yaml.Node{Kind: yaml.MappingNode}
		codes := make([]string, 0, len(o.Rules))
		for code := range o.Rules {
			codes = append(codes, code)
		}
		sort.Strings(codes)
		for _, code := range codes {
			rs.Content = append(rs.Content, str(code), str(settingWord(o.Rules[code])))
		}
		om.Content = append(om.Content, str("paths"), paths, str("rules"), rs)
		ovs.Content = append(ovs.Content, om)
	}
	if len(ovs.Content) == 0 {
		ovs.Style = yaml.FlowStyle
	}
	put("overrides", ovs, "")
	return m
}

func str(s string) *yaml.Node { return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: s} }

func withComment(n *yaml.Node, c string) *yaml.Node { n.LineComment = c; return n }

func settingWord(s Setting) string {
	if s.Off {
		return "off"
	}
	return s.Severity.String()
}

// formatWindow writes a window as .okf.yaml and --expiring-within read it: whole days as 30d, else
// a Go duration (36h0m0s), 0 for none.
func formatWindow(d time.Duration) string {
	switch {
	case d == 0:
		return "0"
	case d%(24*time.Hour) == 0:
		return fmt.Sprintf("%dd", d/(24*time.Hour))
	}
	return d.String()
}
