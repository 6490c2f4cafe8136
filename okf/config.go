package okf

import (
	"errors"
	"fmt"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/okf-tools/okf/internal/bytesize"
	"github.com/okf-tools/okf/internal/suggest"
	"go.yaml.in/yaml/v3"
)

// A bundle's .okf.yaml is one file, read by every command through Open and checked whole, the
// same way, by all of them: a configuration that does not parse, a key okf does not know or a value
// it cannot use is a *ConfigError (okf exits 2), never a setting silently dropped. The commands
// that only need the bundle-wide settings (ignore, max_file_size) still refuse a file whose lint
// settings are wrong: CI would otherwise pass a trust or serve run on a configuration that okf lint
// rejects, and a typo there (rulez:) would look like a setting that works.

// ConfigProblem is one thing wrong in a configuration file, at its position, with the valid word
// closest to what was written when one is near (a "did you mean").
type ConfigProblem struct {
	Pos        Position
	Msg        string
	Suggestion string
}

// String is the problem as okf prints it: "file:line:col: message; did you mean "x"?".
func (p ConfigProblem) String() string {
	s := p.Pos.String() + ": " + p.Msg
	if p.Suggestion != "" {
		s += fmt.Sprintf("; did you mean %q?", p.Suggestion)
	}
	return s
}

// ConfigError is a configuration that cannot be used as written: every problem of the file, in
// the order of their positions. okf reports it and stops (exit 2 in the CLI); a caller that wants
// to go on anyway (a tool reading an old revision) uses the Config returned beside it, which holds
// the parts that could be read.
type ConfigError struct {
	// Path is the file as shown in the problems' positions.
	Path     string
	Problems []ConfigProblem
	// More counts the problems found past the first MaxConfigProblems, not kept.
	More int
}

// MaxConfigProblems is how many problems of one configuration are kept and printed; the rest are
// counted (ConfigError.More). Bound: the file comes with the pull request, and 100,000 unknown
// keys in 1 MB were as many lines of CI log, each with a "did you mean" to work out.
const MaxConfigProblems = 100

// Error lists the problems one per line, at most MaxConfigProblems of them and the count of the
// rest, so that a hostile configuration cannot make the message unbounded.
func (e *ConfigError) Error() string {
	lines := make([]string, len(e.Problems))
	for i, p := range e.Problems {
		lines[i] = p.String()
	}
	if l := e.MoreLine(); l != "" {
		lines = append(lines, l)
	}
	return strings.Join(lines, "\n")
}

// MoreLine says how many problems were left out ("" when none).
func (e *ConfigError) MoreLine() string {
	if e.More == 0 {
		return ""
	}
	return fmt.Sprintf("%s: and %d more configuration problems, not shown", e.Path, e.More)
}

// Config is a parsed .okf.yaml: the bundle-wide settings (which files are in the bundle) and okf
// lint's own (which rules run, where, at which severity, and the bundle's schemas).
type Config struct {
	// Path is the file as shown in positions.
	Path string
	// Settings are the bundle-wide settings: ignore, max_file_size.
	Settings
	// Rules are the `rules` entries, in the order written; a rule's code when the rule catalog
	// (RegisterRules) knows it.
	Rules []RuleSetting
	// Overrides are the `overrides` entries, in order (later ones win).
	Overrides []OverrideSetting
	// ExpiringWithin is the "expiring soon" window (D11) when HasExpiringWithin; 0 turns it off.
	ExpiringWithin    time.Duration
	HasExpiringWithin bool
	// Schemas maps concept types to schema files of the bundle, in the order written.
	Schemas []SchemaSetting
}

// RuleSetting is one rule's setting: off, or on at a severity.
type RuleSetting struct {
	Rule     string
	Off      bool
	Severity Severity
	Pos      Position
}

// OverrideSetting is one `overrides` entry: rule settings for the files its globs match.
type OverrideSetting struct {
	Paths []string
	Rules []RuleSetting
	Pos   Position
}

// SchemaSetting maps a concept type to a schema file (a slash path from the bundle root).
type SchemaSetting struct {
	Type, File string
	Pos        Position
}

// ConfigKeys are the top-level keys of .okf.yaml, in the order the docs list them.
var ConfigKeys = []string{"rules", "overrides", "ignore", "expiring_within", "schemas", "max_file_size"}

// BundleWideKeys are the keys that decide which files are in the bundle, for every command.
var BundleWideKeys = []string{"ignore", "max_file_size"}

// MaxOverrides is how many overrides .okf.yaml may list. Bound: every finding's path is matched
// against every override's patterns, and 5,000 overrides over 5,000 files took 5 s.
const MaxOverrides = 256

// severityWords are the values a rule setting takes, for suggestions.
var severityWords = []string{"off", "error", "warning", "info"}

// ruleCatalog is the vocabulary of rule codes and names, registered by the package that defines
// the rules (lint), so that okf checks `rules:` entries for every command, not only for okf lint.
var ruleCatalog struct {
	sync.Mutex
	resolve func(string) (code, why string)
	names   func() []string
}

// RegisterRules tells okf which rules a configuration may name: resolve returns a rule's code
// for its code or name, or "" and, for a code that no longer names a rule, why; names lists
// every code and name (for "did you mean"). The lint package registers its registry when it is
// linked in; a program without it reads `rules:` entries without checking their names.
func RegisterRules(resolve func(codeOrName string) (code, why string), names func() []string) {
	ruleCatalog.Lock()
	defer ruleCatalog.Unlock()
	ruleCatalog.resolve, ruleCatalog.names = resolve, names
}

func lookupRule(name string) (code, why string, known bool, candidates func() []string) {
	ruleCatalog.Lock()
	resolve, names := ruleCatalog.resolve, ruleCatalog.names
	ruleCatalog.Unlock()
	if resolve == nil {
		return name, "", true, nil
	}
	code, why = resolve(name)
	return code, why, code != "", names
}

// configParser collects the problems of one file.
type configParser struct {
	c     *Config
	probs []ConfigProblem
	more  int // problems past MaxConfigProblems, counted only
}

// full reports whether MaxConfigProblems are kept: a problem found now is only counted, so its
// message and "did you mean" need not be worked out.
func (p *configParser) full() bool { return len(p.probs) >= MaxConfigProblems }

func (p *configParser) add(n *yaml.Node, suggestion, format string, args ...any) {
	if p.full() {
		p.more++
		return
	}
	pos := Position{Path: p.c.Path}
	if n != nil {
		pos.Line, pos.Col = int32(n.Line), int32(n.Column)
	}
	p.probs = append(p.probs, ConfigProblem{Pos: pos, Msg: fmt.Sprintf(format, args...), Suggestion: suggestion})
}

// ParseConfig reads the configuration text src; name is the file as shown in positions. It reads
// every key and checks every value; when anything is wrong the error is a *ConfigError listing
// every problem, and the Config holds what could be read. Empty text is an empty configuration.
func ParseConfig(name string, src []byte) (*Config, error) {
	p := &configParser{c: &Config{Path: name}}
	p.parse(src)
	if len(p.probs) == 0 {
		return p.c, nil
	}
	sort.SliceStable(p.probs, func(i, j int) bool { return p.probs[i].Pos.Less(p.probs[j].Pos) })
	return p.c, &ConfigError{Path: name, Problems: p.probs, More: p.more}
}

// duplicates reports every key written twice in a mapping of the configuration, at any depth: YAML
// keeps the last and drops the first without a word, so a setting would be lost silently.
func (p *configParser) duplicates(n *yaml.Node, depth int) {
	if n == nil || depth > maxMeaningDepth || n.Kind == yaml.AliasNode {
		return
	}
	if n.Kind == yaml.MappingNode {
		first := make(map[string]*yaml.Node, len(n.Content)/2)
		for i := 0; i+1 < len(n.Content); i += 2 {
			k := n.Content[i]
			if k.Kind != yaml.ScalarNode {
				continue
			}
			if prev, dup := first[k.Value]; dup {
				p.add(k, "", "key %q written twice (first on line %d): YAML keeps only the last", k.Value, prev.Line)
				continue
			}
			first[k.Value] = k
		}
	}
	for _, c := range n.Content {
		p.duplicates(c, depth+1)
	}
}

var yamlLineRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^yaml: line (\d+): (.*)$`) })

func (p *configParser) parse(src []byte) {
	var doc yaml.Node
	if err := yaml.Unmarshal(src, &doc); err != nil {
		msg, line := strings.TrimPrefix(err.Error(), "yaml: "), 0
		if m := yamlLineRe().FindStringSubmatch(err.Error()); m != nil {
			line, _ = strconv.Atoi(m[1])
			msg = m[2]
		}
		p.probs = append(p.probs, ConfigProblem{Pos: Position{Path: p.c.Path, Line: int32(line)}, Msg: "not valid YAML: " + msg})
		return
	}
	var ae *AliasError
	if err := CheckYAMLAliases(&doc); errors.As(err, &ae) {
		p.probs = append(p.probs, ConfigProblem{Pos: Position{Path: p.c.Path, Line: int32(ae.Line)}, Msg: "not valid YAML: " + ae.Msg})
		return
	}
	if len(doc.Content) == 0 {
		return
	}
	p.duplicates(doc.Content[0], 0)
	top := doc.Content[0]
	if top.Kind != yaml.MappingNode {
		if isNull(top) {
			return
		}
		p.add(top, "", "the configuration must be a mapping of keys to values, found %s", YAMLShape(top))
		return
	}
	for i := 0; i+1 < len(top.Content); i += 2 {
		k, v := top.Content[i], top.Content[i+1]
		if isNull(v) && k.Kind == yaml.ScalarNode && contains(ConfigKeys, k.Value) {
			continue // `ignore:` with nothing after it: not set
		}
		switch k.Value {
		case "rules":
			p.c.Rules = p.rules(v, "rules")
		case "overrides":
			p.overrides(v)
		case "ignore":
			p.c.Ignore = p.globs(v, "ignore")
			if len(p.c.Ignore) > MaxIgnorePatterns {
				// Bound: each pattern is matched against every path.
				p.add(v, "", "ignore lists %d patterns: at most %d are allowed", len(p.c.Ignore), MaxIgnorePatterns)
				p.c.Ignore = p.c.Ignore[:MaxIgnorePatterns]
			}
		case "expiring_within":
			if v.Kind != yaml.ScalarNode {
				p.add(v, "", "expiring_within must be a duration such as 30d or 720h, found %s", YAMLShape(v))
				continue
			}
			d, err := ParseWindow(v.Value)
			if err != nil {
				p.add(v, "", "expiring_within: %v", err)
				continue
			}
			p.c.ExpiringWithin, p.c.HasExpiringWithin = d, true
		case "schemas":
			p.schemas(v)
		case "max_file_size":
			p.c.MaxFileSize = p.size(v)
		default:
			p.unknownKey(k, ConfigKeys, "")
		}
	}
}

func (p *configParser) unknownKey(k *yaml.Node, keys []string, where string) {
	if k.Kind != yaml.ScalarNode {
		p.add(k, "", "a key%s must be a word, found %s", where, YAMLShape(k))
		return
	}
	if p.full() {
		p.more++
		return
	}
	if s := suggest.Closest(k.Value, keys); s != "" {
		p.add(k, s, "unknown key %q%s", k.Value, where)
		return
	}
	p.add(k, "", "unknown key %q%s (want %s)", k.Value, where, strings.Join(keys, ", "))
}

// rules reads a mapping of rule code or name to off, error, warning or info.
func (p *configParser) rules(v *yaml.Node, key string) []RuleSetting {
	if v.Kind != yaml.MappingNode {
		p.add(v, "", "%s must be a mapping of rule code or name to off, error, warning or info, found %s", key, YAMLShape(v))
		return nil
	}
	var out []RuleSetting
	set := map[string]*yaml.Node{} // rule code → the key that set it
	for i := 0; i+1 < len(v.Content); i += 2 {
		k, val := v.Content[i], v.Content[i+1]
		if k.Kind != yaml.ScalarNode {
			p.add(k, "", "%s: want a rule code or name, found %s", key, YAMLShape(k))
			continue
		}
		code, why, known, names := lookupRule(k.Value)
		if prev, twice := set[code]; known && twice && prev.Value != k.Value {
			// By its code and by its name: one rule, two settings, only one applied.
			p.add(k, "", "%s: rule %s set twice (first on line %d, as %q)", key, code, prev.Line, prev.Value)
			continue
		}
		if known {
			set[code] = k
		}
		switch {
		case why != "":
			p.add(k, "", "%s: %s", key, why)
			continue
		case !known:
			if p.full() {
				p.more++
				continue
			}
			var s string
			if names != nil {
				s = suggest.Closest(k.Value, names())
			}
			msg := fmt.Sprintf("%s: unknown rule %q", key, k.Value)
			if s == "" {
				msg += " (okf lint --list-rules lists them)"
			}
			p.add(k, s, "%s", msg)
			continue
		}
		rs := RuleSetting{Rule: code, Pos: Position{Path: p.c.Path, Line: int32(k.Line), Col: int32(k.Column)}}
		word := ""
		if val.Kind == yaml.ScalarNode {
			word = strings.ToLower(val.Value)
		}
		switch word {
		case "off", "false", "disable", "disabled":
			rs.Off = true
		default:
			sev, err := ParseSeverity(word)
			if err != nil || val.Kind != yaml.ScalarNode {
				shown := YAMLShape(val)
				s := ""
				if val.Kind == yaml.ScalarNode {
					s = suggest.Closest(val.Value, severityWords)
				}
				p.add(val, s, "%s: %s: want off, error, warning or info, found %s", key, k.Value, shown)
				continue
			}
			rs.Severity = sev
		}
		out = append(out, rs)
	}
	return out
}

// globs reads a list of glob patterns (or one pattern).
func (p *configParser) globs(v *yaml.Node, key string) []string {
	if v.Kind == yaml.ScalarNode && v.ShortTag() == "!!str" {
		return []string{v.Value}
	}
	if v.Kind != yaml.SequenceNode {
		p.add(v, "", "%s must be a list of glob patterns, found %s", key, YAMLShape(v))
		return nil
	}
	var out []string
	for _, it := range v.Content {
		if it.Kind != yaml.ScalarNode || it.ShortTag() != "!!str" {
			p.add(it, "", "%s: want a glob pattern, found %s", key, YAMLShape(it))
			continue
		}
		out = append(out, it.Value)
	}
	return out
}

var overrideKeys = []string{"paths", "rules"}

func (p *configParser) overrides(v *yaml.Node) {
	if v.Kind != yaml.SequenceNode {
		p.add(v, "", "overrides must be a list of {paths, rules} mappings, found %s", YAMLShape(v))
		return
	}
	if len(v.Content) > MaxOverrides {
		// Bound: every finding's path is matched against every override's patterns.
		p.add(v.Content[MaxOverrides], "", "overrides lists %d entries: at most %d are allowed", len(v.Content), MaxOverrides)
	}
	for n, it := range v.Content {
		if n == MaxOverrides {
			break
		}
		if it.Kind != yaml.MappingNode {
			p.add(it, "", "overrides: want a {paths, rules} mapping, found %s", YAMLShape(it))
			continue
		}
		o := OverrideSetting{Pos: Position{Path: p.c.Path, Line: int32(it.Line), Col: int32(it.Column)}}
		for i := 0; i+1 < len(it.Content); i += 2 {
			k, val := it.Content[i], it.Content[i+1]
			switch k.Value {
			case "paths":
				o.Paths = append(o.Paths, p.globs(val, "overrides.paths")...)
			case "rules":
				if !isNull(val) {
					o.Rules = p.rules(val, "overrides.rules")
				}
			default:
				p.unknownKey(k, overrideKeys, " in an override")
			}
		}
		if len(o.Paths) == 0 {
			p.add(it, "", "override without paths: it would apply to no file")
			continue
		}
		p.c.Overrides = append(p.c.Overrides, o)
	}
}

func (p *configParser) schemas(v *yaml.Node) {
	if v.Kind != yaml.MappingNode {
		p.add(v, "", "schemas must map a concept type to a schema file, found %s", YAMLShape(v))
		return
	}
	for i := 0; i+1 < len(v.Content); i += 2 {
		k, val := v.Content[i], v.Content[i+1]
		if val.Kind != yaml.ScalarNode || val.Value == "" || isNull(val) {
			p.add(val, "", "schemas.%s: want the path of a schema file in the bundle, found %s", k.Value, YAMLShape(val))
			continue
		}
		p.c.Schemas = append(p.c.Schemas, SchemaSetting{Type: k.Value, File: strings.TrimPrefix(val.Value, "/"),
			Pos: Position{Path: p.c.Path, Line: int32(val.Line), Col: int32(val.Column)}})
	}
}

// size reads max_file_size: a number of bytes or a size with a unit (8MiB, 512KiB), at most
// MaxConfigFileSize.
func (p *configParser) size(v *yaml.Node) int64 {
	n, err := bytesize.Parse(v.Value)
	if v.Kind != yaml.ScalarNode || err != nil {
		why := "" // what is wrong with a number, beside that it is no size
		switch t := strings.TrimSpace(v.Value); {
		case v.Kind != yaml.ScalarNode:
		case strings.HasPrefix(t, "-"):
			why = ": a size cannot be negative"
		case len(t) > 18 && strings.Trim(t, "0123456789") == "":
			why = ": more bytes than okf can count"
		case err != nil && !strings.HasPrefix(err.Error(), "want "):
			why = ": " + err.Error()
		}
		p.add(v, "", "max_file_size must be a size such as 8MiB, 512KiB or a number of bytes, found %s%s", YAMLShape(v), why)
		return 0
	}
	if n > MaxConfigFileSize {
		p.add(v, "", "max_file_size %s is over the %s a bundle's configuration may set (only --max-file-size goes past it)",
			bytesize.Format(n), bytesize.Format(MaxConfigFileSize))
		return MaxConfigFileSize
	}
	return n
}

func isNull(n *yaml.Node) bool { return n.Kind == yaml.ScalarNode && n.ShortTag() == "!!null" }

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
