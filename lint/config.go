package lint

import (
	"errors"
	"fmt"
	"io/fs"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/okf-tools/okf/okf"
	"go.yaml.in/yaml/v3"
)

// ConfigName is the configuration file okf lint reads from the bundle root (okf.ConfigName). It is
// a hidden file, so it is never a concept (D5).
const ConfigName = okf.ConfigName

// MaxConfigFileSize is the largest max_file_size .okf.yaml may set (okf.MaxConfigFileSize): a
// larger setting is reported (OKF901) and this one applies.
const MaxConfigFileSize = okf.MaxConfigFileSize

// MaxOverrides is how many overrides .okf.yaml may list; the rest are reported (OKF901) and not
// applied. Bound: every finding's path is matched against every override's patterns, and 5,000
// overrides over 5,000 files took 5 s (growing as their product).
const MaxOverrides = 256

// Config is a parsed .okf.yaml: which rules run, at which severity, where, and what the bundle adds
// (ignore globs, the expiring window, its own schemas per type). Problems in the file itself are
// findings (Diagnostics), reported with their positions by the engine rules OKF901–OKF903; the
// usable parts of the file still apply.
type Config struct {
	// Path is the slash path used in positions ("‹root›/.okf.yaml" shows as ".okf.yaml").
	Path string
	// Rules maps a rule code to its setting for the whole bundle.
	Rules map[string]Setting
	// Overrides apply, in order, to the files their globs match; later ones win.
	Overrides []Override
	// Ignore lists gitignore-syntax patterns, passed to the loader with .okfignore's (D5).
	Ignore []string
	// ExpiringWithin is the "expiring soon" window (D11); zero when not set, NoExpiringWindow for 0.
	ExpiringWithin time.Duration
	// Schemas maps a concept `type` to a schema file of the bundle (a slash path from the root).
	Schemas map[string]SchemaRef
	// MaxFileSize is the largest file of the bundle read, in bytes (max_file_size); zero when not
	// set (okf.DefaultMaxFileSize applies). --max-file-size wins over it.
	MaxFileSize int64
	// Diagnostics are the problems found in the file itself.
	Diagnostics []okf.Diagnostic
}

// Setting is what the configuration says about one rule: off, or on at a severity.
type Setting struct {
	Off      bool
	Severity okf.Severity
}

// Override is one `overrides` entry: rule settings for the files matching its globs.
type Override struct {
	// Paths matches the files themselves; dirs matches their folders, with the patterns that do not
	// end in "/**" (which already reach every file below).
	Paths *okf.Ignore
	dirs  *okf.Ignore
	Rules map[string]Setting
}

// SchemaRef is a type's schema file and where the mapping was written, for errors.
type SchemaRef struct {
	Path string
	Pos  okf.Position
}

// configKeys are the top-level keys of .okf.yaml, in the order the docs list them.
var configKeys = []string{"rules", "overrides", "ignore", "expiring_within", "schemas", "max_file_size"}

// ParseConfig reads the configuration text src; name is the path shown in positions. It never
// fails: every problem is a diagnostic and the rest of the file still applies.
func ParseConfig(name string, src []byte) *Config {
	c := &Config{Path: name, Rules: map[string]Setting{}, Schemas: map[string]SchemaRef{}}
	var doc yaml.Node
	if err := yaml.Unmarshal(src, &doc); err != nil {
		c.errorf(ConfigInvalid, yamlErrLine(err), 0, "configuration is not valid YAML: %s", yamlErrMsg(err))
		return c
	}
	var ae *okf.AliasError
	if err := okf.CheckYAMLAliases(&doc); errors.As(err, &ae) {
		c.errorf(ConfigInvalid, ae.Line, 0, "configuration is not valid YAML: %s", ae.Msg)
		return c
	}
	if len(doc.Content) == 0 {
		return c
	}
	top := doc.Content[0]
	if top.Kind != yaml.MappingNode {
		if top.ShortTag() == "!!null" {
			return c
		}
		c.errorf(ConfigInvalid, top.Line, top.Column, "configuration must be a mapping of keys to values, found %s", shape(top))
		return c
	}
	for i := 0; i+1 < len(top.Content); i += 2 {
		k, v := top.Content[i], top.Content[i+1]
		switch k.Value {
		case "rules":
			c.Rules = c.parseRules(v)
		case "overrides":
			c.parseOverrides(v)
		case "ignore":
			// A bundle-wide setting: read as every command reads it (okf.Open).
			var probs []okf.SettingProblem
			c.Ignore, probs = okf.ParseIgnoreSetting(v)
			c.settingProblems(probs)
		case "expiring_within":
			if v.Kind != yaml.ScalarNode {
				c.errorf(ConfigInvalid, v.Line, v.Column, "expiring_within must be a duration such as 30d or 720h, found %s", shape(v))
				continue
			}
			d, err := okf.ParseWindow(v.Value)
			if err != nil {
				c.errorf(ConfigInvalid, v.Line, v.Column, "expiring_within: %v", err)
				continue
			}
			c.ExpiringWithin = WindowSetting(d)
		case "schemas":
			c.parseSchemas(v)
		case "max_file_size":
			// A bundle-wide setting: read as every command reads it (okf.Open).
			var probs []okf.SettingProblem
			c.MaxFileSize, probs = okf.ParseSizeSetting(v)
			c.settingProblems(probs)
		default:
			c.errorf(ConfigUnknownKey, k.Line, k.Column, "unknown configuration key %q (want %s)", k.Value, strings.Join(configKeys, ", "))
		}
	}
	return c
}

// UnreadableConfig is the configuration used when the file name could not be read (linked outside
// the bundle, not a regular file, over the size limit): empty, with one finding saying why. The
// file's content is never shown.
func UnreadableConfig(name string, err error) *Config {
	c := ParseConfig(name, nil)
	var pe *fs.PathError
	if errors.As(err, &pe) {
		err = pe.Err
	}
	c.errorf(ConfigInvalid, 1, 1, "configuration not read: %s; the defaults apply", strings.TrimSuffix(err.Error(), ": not read"))
	return c
}

func (c *Config) errorf(r *Rule, line, col int, format string, args ...any) {
	c.Diagnostics = append(c.Diagnostics, okf.Diagnostic{
		Pos:  okf.Position{Path: c.Path, Line: int32(line), Col: int32(col)},
		Code: r.Code, Severity: r.Severity, Message: fmt.Sprintf(format, args...),
	})
}

// settingProblems reports the problems okf found in a bundle-wide setting.
func (c *Config) settingProblems(ps []okf.SettingProblem) {
	for _, p := range ps {
		c.errorf(ConfigInvalid, p.Line, p.Col, "%s", p.Msg)
	}
}

// parseRules reads a mapping of rule code or name to off, error, warning or info.
func (c *Config) parseRules(v *yaml.Node) map[string]Setting {
	out := map[string]Setting{}
	if v.Kind != yaml.MappingNode {
		c.errorf(ConfigInvalid, v.Line, v.Column, "rules must be a mapping of rule code or name to off, error, warning or info, found %s", shape(v))
		return out
	}
	for i := 0; i+1 < len(v.Content); i += 2 {
		k, val := v.Content[i], v.Content[i+1]
		r := Lookup(k.Value)
		if r == nil {
			c.errorf(ConfigUnknownRule, k.Line, k.Column, "unknown rule %q (okf lint --list-rules lists them)", k.Value)
			continue
		}
		s, ok := parseSetting(val)
		if !ok {
			c.errorf(ConfigInvalid, val.Line, val.Column, "rule %s: want off, error, warning or info, found %q", r.Code, val.Value)
			continue
		}
		out[r.Code] = s
	}
	return out
}

func parseSetting(v *yaml.Node) (Setting, bool) {
	if v.Kind != yaml.ScalarNode {
		return Setting{}, false
	}
	switch strings.ToLower(v.Value) {
	case "off", "false", "disable", "disabled":
		return Setting{Off: true}, true
	}
	sev, err := okf.ParseSeverity(strings.ToLower(v.Value))
	if err != nil {
		return Setting{}, false
	}
	return Setting{Severity: sev}, true
}

func (c *Config) parseStrings(v *yaml.Node, key string) []string {
	if v.Kind == yaml.ScalarNode && v.ShortTag() == "!!str" {
		return []string{v.Value}
	}
	if v.Kind != yaml.SequenceNode {
		c.errorf(ConfigInvalid, v.Line, v.Column, "%s must be a list of glob patterns, found %s", key, shape(v))
		return nil
	}
	var out []string
	for _, it := range v.Content {
		if it.Kind != yaml.ScalarNode {
			c.errorf(ConfigInvalid, it.Line, it.Column, "%s: want a glob pattern, found %s", key, shape(it))
			continue
		}
		out = append(out, it.Value)
	}
	return out
}

func (c *Config) parseOverrides(v *yaml.Node) {
	if v.Kind != yaml.SequenceNode {
		c.errorf(ConfigInvalid, v.Line, v.Column, "overrides must be a list of {paths, rules} mappings, found %s", shape(v))
		return
	}
	for n, it := range v.Content {
		if n == MaxOverrides {
			// Bound: every finding's path is matched against every override's patterns.
			c.errorf(ConfigInvalid, it.Line, it.Column, "overrides lists %d entries: only the first %d apply", len(v.Content), MaxOverrides)
			break
		}
		if it.Kind != yaml.MappingNode {
			c.errorf(ConfigInvalid, it.Line, it.Column, "overrides: want a {paths, rules} mapping, found %s", shape(it))
			continue
		}
		o := Override{Paths: okf.ParseIgnore(nil), dirs: okf.ParseIgnore(nil), Rules: map[string]Setting{}}
		var hasPaths bool
		for i := 0; i+1 < len(it.Content); i += 2 {
			k, val := it.Content[i], it.Content[i+1]
			switch k.Value {
			case "paths":
				for _, p := range c.parseStrings(val, "overrides.paths") {
					o.Paths.Add(p)
					if !strings.HasSuffix(p, "/**") {
						o.dirs.Add(p)
					}
					hasPaths = true
				}
			case "rules":
				o.Rules = c.parseRules(val)
			default:
				c.errorf(ConfigUnknownKey, k.Line, k.Column, "unknown key %q in an override (want paths, rules)", k.Value)
			}
		}
		if !hasPaths {
			c.errorf(ConfigInvalid, it.Line, it.Column, "override without paths: it would apply to no file")
			continue
		}
		c.Overrides = append(c.Overrides, o)
	}
}

func (c *Config) parseSchemas(v *yaml.Node) {
	if v.Kind != yaml.MappingNode {
		c.errorf(ConfigInvalid, v.Line, v.Column, "schemas must map a concept type to a schema file, found %s", shape(v))
		return
	}
	for i := 0; i+1 < len(v.Content); i += 2 {
		k, val := v.Content[i], v.Content[i+1]
		if val.Kind != yaml.ScalarNode || val.Value == "" {
			c.errorf(ConfigInvalid, val.Line, val.Column, "schemas.%s: want the path of a schema file in the bundle, found %s", k.Value, shape(val))
			continue
		}
		c.Schemas[k.Value] = SchemaRef{Path: strings.TrimPrefix(val.Value, "/"), Pos: okf.Position{Path: c.Path, Line: int32(val.Line), Col: int32(val.Column)}}
	}
}

// setting returns the effective setting of rule r for the file at path: the rule's default, then
// the configuration's rules, then each matching override in order.
func (c *Config) setting(r *Rule, path string, def okf.Severity) Setting {
	s := Setting{Severity: def}
	if c == nil {
		return s
	}
	if g, ok := c.Rules[r.Code]; ok {
		s = g
	}
	for _, o := range c.Overrides {
		if g, ok := o.Rules[r.Code]; ok && o.matches(path) {
			s = g
		}
	}
	return s
}

// matches reports whether the override applies to the file at path: the file or one of its folders
// matches a glob (gitignore syntax, as .okfignore).
func (o Override) matches(path string) bool {
	for i := 0; i < len(path); i++ {
		if path[i] == '/' && o.dirs.Match(path[:i], true) {
			return true
		}
	}
	return o.Paths.Match(path, false)
}

// mayRun reports whether rule r is on anywhere: globally, or in some override.
func (c *Config) mayRun(r *Rule) bool {
	if c == nil {
		return true
	}
	if g, ok := c.Rules[r.Code]; !ok || !g.Off {
		return true
	}
	for _, o := range c.Overrides {
		if g, ok := o.Rules[r.Code]; ok && !g.Off {
			return true
		}
	}
	return false
}

// SchemaTypes returns the configured types in sorted order.
func (c *Config) SchemaTypes() []string {
	if c == nil {
		return nil
	}
	ts := make([]string, 0, len(c.Schemas))
	for t := range c.Schemas {
		ts = append(ts, t)
	}
	sort.Strings(ts)
	return ts
}

func shape(n *yaml.Node) string { return okf.YAMLShape(n) }

var yamlLineRe = &lazyRegexp{Expr: `^yaml: line (\d+): (.*)$`}

// yamlErrLine reads the line number out of a yaml.v3 syntax error (0 when it names none).
func yamlErrLine(err error) int {
	if m := yamlLineRe.Get().FindStringSubmatch(err.Error()); m != nil {
		n, _ := strconv.Atoi(m[1])
		return n
	}
	return 0
}

func yamlErrMsg(err error) string {
	if m := yamlLineRe.Get().FindStringSubmatch(err.Error()); m != nil {
		return m[2]
	}
	return strings.TrimPrefix(err.Error(), "yaml: ")
}
