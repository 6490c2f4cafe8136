package okf

import (
	"errors"
	"fmt"

	"go.yaml.in/yaml/v3"
)

// A bundle's .okf.yaml holds two kinds of settings: those that decide which files are in the bundle
// (ignore, max_file_size), and those only okf lint reads (rules, overrides, schemas, …). The first
// kind is read here, once, by every command through Open, so that a file is in the bundle for lint,
// trust, attest, migrate, index and serve alike, or for none of them. okf lint reads the rest, and
// reports what is wrong in the whole file (OKF901), with these same functions for these keys.

// ConfigName is the file at a bundle's root that holds its configuration.
const ConfigName = ".okf.yaml"

// MaxConfigFileSize is the largest max_file_size a bundle's own configuration may set: the file
// comes with the bundle, so it may lower the limit but raise it no further than this (a file of
// gigabytes of zeros costs a pull request a few MB in git). Only --max-file-size goes past it.
const MaxConfigFileSize = 32 << 20

// Settings are the bundle-wide settings of .okf.yaml: what decides which files are in the bundle.
type Settings struct {
	// Ignore lists gitignore-syntax patterns of files that are not in the bundle (D5), beside
	// .okfignore's; at most MaxIgnorePatterns.
	Ignore []string
	// MaxFileSize is the largest file read, in bytes (max_file_size); zero when not set. At most
	// MaxConfigFileSize.
	MaxFileSize int64
}

// SettingProblem is a setting that could not be used as written, at its line and column in the
// configuration (okf lint reports it; the other commands use what could be read).
type SettingProblem struct {
	Line, Col int
	Msg       string
}

// ParseIgnoreSetting reads the value of `ignore`: a list of glob patterns (or one pattern).
func ParseIgnoreSetting(v *yaml.Node) ([]string, []SettingProblem) {
	var probs []SettingProblem
	if v.Kind == yaml.ScalarNode && v.ShortTag() == "!!str" {
		return []string{v.Value}, nil
	}
	if v.Kind != yaml.SequenceNode {
		return nil, []SettingProblem{{v.Line, v.Column, fmt.Sprintf("ignore must be a list of glob patterns, found %s", YAMLShape(v))}}
	}
	var out []string
	for _, it := range v.Content {
		if it.Kind != yaml.ScalarNode {
			probs = append(probs, SettingProblem{it.Line, it.Column, fmt.Sprintf("ignore: want a glob pattern, found %s", YAMLShape(it))})
			continue
		}
		out = append(out, it.Value)
	}
	if len(out) > MaxIgnorePatterns {
		// Bound: each pattern is matched against every path.
		probs = append(probs, SettingProblem{v.Line, v.Column, fmt.Sprintf("ignore lists %d patterns: only the first %d apply", len(out), MaxIgnorePatterns)})
		out = out[:MaxIgnorePatterns]
	}
	return out, probs
}

// ParseSizeSetting reads the value of `max_file_size`: a number of bytes or a size with a unit
// (8MiB, 512KiB), at most MaxConfigFileSize (a larger one is a problem, and the cap applies).
func ParseSizeSetting(v *yaml.Node) (int64, []SettingProblem) {
	n, err := ParseSize(v.Value)
	if v.Kind != yaml.ScalarNode || err != nil {
		return 0, []SettingProblem{{v.Line, v.Column, fmt.Sprintf("max_file_size must be a size such as 8MiB, 512KiB or a number of bytes, found %s", YAMLShape(v))}}
	}
	if n > MaxConfigFileSize {
		return MaxConfigFileSize, []SettingProblem{{v.Line, v.Column, fmt.Sprintf("max_file_size %s is over the %s a bundle's configuration may set; %s applies (raise it past that with --max-file-size)",
			FormatSize(n), FormatSize(MaxConfigFileSize), FormatSize(MaxConfigFileSize))}}
	}
	return n, nil
}

// YAMLShape describes a YAML value for a message: "a mapping", "a list", "nothing", "a number",
// "a boolean", or a string quoted.
func YAMLShape(n *yaml.Node) string {
	switch n.Kind {
	case yaml.MappingNode:
		return "a mapping"
	case yaml.SequenceNode:
		return "a list"
	case yaml.ScalarNode:
		switch n.ShortTag() {
		case "!!null":
			return "nothing"
		case "!!int", "!!float":
			return "a number"
		case "!!bool":
			return "a boolean"
		}
		return fmt.Sprintf("%q", n.Value)
	}
	return "a value"
}

// ReadSettings reads the bundle-wide settings of the .okf.yaml at r's root, through r (confined,
// capped). A file that is absent, unreadable or not YAML, and a value that cannot be used, leave
// the defaults for that setting: okf lint says why.
func ReadSettings(r *Root) Settings {
	data, err := r.ReadFile(ConfigName)
	if err != nil {
		return Settings{}
	}
	s, _ := ParseSettings(data)
	return s
}

// ParseSettings reads the bundle-wide settings of a configuration's text, and the problems of
// their values. Other keys are not looked at (okf lint reads them).
func ParseSettings(src []byte) (Settings, []SettingProblem) {
	var s Settings
	var doc yaml.Node
	if err := yaml.Unmarshal(src, &doc); err != nil || len(doc.Content) == 0 {
		return s, nil
	}
	var ae *AliasError
	if err := CheckYAMLAliases(&doc); errors.As(err, &ae) {
		return s, nil
	}
	top := doc.Content[0]
	if top.Kind != yaml.MappingNode {
		return s, nil
	}
	var probs []SettingProblem
	for i := 0; i+1 < len(top.Content); i += 2 {
		k, v := top.Content[i], top.Content[i+1]
		switch k.Value {
		case "ignore":
			var p []SettingProblem
			s.Ignore, p = ParseIgnoreSetting(v)
			probs = append(probs, p...)
		case "max_file_size":
			var p []SettingProblem
			s.MaxFileSize, p = ParseSizeSetting(v)
			probs = append(probs, p...)
		}
	}
	return s, probs
}

// Opened is a bundle folder opened the way every command opens it (Open): its confined Root, with
// the size limit in force, and its bundle-wide settings.
type Opened struct {
	Root     *Root
	Settings Settings
}

// Open opens the bundle folder dir for any command: confined to it (OpenBundle: a folder linked out
// of its checkout is refused), with the size limit maxFileSize (--max-file-size; 0 when not given),
// else the configuration's max_file_size, else DefaultMaxFileSize; the configuration's ignore list
// applies to every Load through it. The caller closes Root.
func Open(dir string, maxFileSize int64) (*Opened, error) {
	r, err := OpenBundle(dir, maxFileSize)
	if err != nil {
		return nil, err
	}
	s := ReadSettings(r)
	if maxFileSize == 0 && s.MaxFileSize > 0 {
		r = NewRoot(r, s.MaxFileSize)
	}
	return &Opened{Root: r, Settings: s}, nil
}

// Load loads the bundle through o.Root, with the configuration's ignore list added to opts'.
func (o *Opened) Load(opts LoadOptions) (*Bundle, error) {
	opts.Ignore = append(append([]string(nil), o.Settings.Ignore...), opts.Ignore...)
	return LoadRoot(o.Root, opts)
}
