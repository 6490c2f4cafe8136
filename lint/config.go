package lint

import (
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/okf-tools/okf/okf"
)

// ConfigName is the configuration file okf lint reads from the bundle root (okf.ConfigName). It is
// a hidden file, so it is never a concept (D5).
const ConfigName = okf.ConfigName

// MaxConfigFileSize is the largest max_file_size .okf.yaml may set (okf.MaxConfigFileSize).
const MaxConfigFileSize = okf.MaxConfigFileSize

// MaxOverrides is how many overrides .okf.yaml may list (okf.MaxOverrides).
const MaxOverrides = okf.MaxOverrides

// Config is okf lint's reading of a .okf.yaml: which rules run, at which severity, where, and what
// the bundle adds (ignore globs, the expiring window, its own schemas per type). The file was
// checked whole when it was read (okf.ParseConfig): a configuration with a problem never gets here,
// it stops the run (exit 2), so that no setting is silently dropped.
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
	// Patterns are the globs as written (for --show-config).
	Patterns []string
}

// SchemaRef is a type's schema file and where the mapping was written, for errors.
type SchemaRef struct {
	Path string
	Pos  okf.Position
}

// ParseConfig reads the configuration text src, checked whole as every command checks it
// (okf.ParseConfig); name is the path shown in positions. The error is an *okf.ConfigError listing
// every problem, beside the parts that could be read.
func ParseConfig(name string, src []byte) (*Config, error) {
	RegisterRuleNames()
	c, err := okf.ParseConfig(name, src)
	return fromOKF(c, name), err
}

// fromOKF makes lint's configuration of a parsed .okf.yaml, at the path name in positions.
func fromOKF(oc *okf.Config, name string) *Config {
	c := &Config{Path: name, Rules: map[string]Setting{}, Schemas: map[string]SchemaRef{}}
	if oc == nil {
		return c
	}
	c.Ignore, c.MaxFileSize = oc.Ignore, oc.MaxFileSize
	c.Rules = rulesOf(oc.Rules)
	if oc.HasExpiringWithin {
		c.ExpiringWithin = WindowSetting(oc.ExpiringWithin)
	}
	for _, o := range oc.Overrides {
		ov := Override{Paths: okf.ParseIgnore(nil), dirs: okf.ParseIgnore(nil), Rules: rulesOf(o.Rules), Patterns: o.Paths}
		for _, p := range o.Paths {
			ov.Paths.Add(p)
			if !strings.HasSuffix(p, "/**") {
				ov.dirs.Add(p)
			}
		}
		c.Overrides = append(c.Overrides, ov)
	}
	for _, s := range oc.Schemas {
		pos := s.Pos
		pos.Path = name
		c.Schemas[s.Type] = SchemaRef{Path: s.File, Pos: pos}
	}
	return c
}

func rulesOf(rs []okf.RuleSetting) map[string]Setting {
	out := map[string]Setting{}
	for _, r := range rs {
		code := r.Rule
		if rule := Lookup(code); rule != nil {
			code = rule.Code
		}
		out[code] = Setting{Off: r.Off, Severity: r.Severity}
	}
	return out
}

const (
	retiredInvalid    = "rule OKF901 (config-invalid) is retired: a configuration that cannot be used now stops okf (exit 2)"
	retiredUnknownKey = "rule OKF902 (config-unknown-key) is retired: an unknown configuration key now stops okf (exit 2)"
)

// retiredRules are codes that no longer name a rule, and why: a configuration naming one is told,
// rather than told the code is unknown.
var retiredRules = map[string]string{
	"OKF901":             retiredInvalid,
	"OKF902":             retiredUnknownKey,
	"config-invalid":     retiredInvalid,
	"config-unknown-key": retiredUnknownKey,
}

// RegisterRuleNames tells okf which rules a configuration may name (okf.RegisterRules), so that a
// .okf.yaml is checked the same way, unknown rules included, by every command: okf, which the
// other packages open bundles through, knows no rule itself. cmd/okf calls it first thing; lint's
// own ParseConfig and LoadConfig make sure of it. Cheap, and done once.
func RegisterRuleNames() { registerOnce() }

var registerOnce = sync.OnceFunc(func() {
	okf.RegisterRules(func(codeOrName string) (string, string) {
		if r := Lookup(codeOrName); r != nil {
			return r.Code, ""
		}
		if why := retiredRules[codeOrName]; why != "" {
			return "", why + "; remove this entry"
		}
		return "", ""
	}, func() []string {
		var names []string
		for _, r := range All() {
			names = append(names, r.Code, r.Name)
		}
		return names
	})
})

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
