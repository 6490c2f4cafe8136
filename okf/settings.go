package okf

import (
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"strings"

	"go.yaml.in/yaml/v3"
)

// A bundle's .okf.yaml holds two kinds of settings: those that decide which files are in the bundle
// (ignore, max_file_size), and those only okf lint reads (rules, overrides, schemas, …). The whole
// file is read and checked here, once, by every command through Open (ParseConfig, config.go), so
// that a file is in the bundle for lint, trust, attest, migrate, index and serve alike, or for none
// of them, and so that a configuration with a mistake stops them all alike.

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

// ParseSettings reads the bundle-wide settings of a configuration's text leniently: what could be
// read, whatever else is wrong in the file (the error is ParseConfig's). For a revision of the
// past (okf trust --base), read as a checkout of it was; the bundle opened now goes through Open,
// which refuses a configuration with any problem.
func ParseSettings(src []byte) (Settings, error) {
	c, err := ParseConfig(ConfigName, src)
	return c.Settings, err
}

// Opened is a bundle opened the way every command opens it (Open, OpenPath): its confined file
// system, with the size limit in force, its configuration, and the part of it the path named
// stands for.
type Opened struct {
	// FileSystem reads the bundle's files, confined to its root; the caller closes it.
	FileSystem *FileSystem
	// Settings are the bundle-wide settings in force (Config's, or none).
	Settings Settings
	// Config is the bundle's .okf.yaml, checked whole; nil when the bundle has none.
	Config *Config
	// Target is where the path named lies in the bundle (OpenPath); Target.Root is the root as
	// shown.
	Target Target
}

// Open opens the folder dir as a bundle root for any command: confined to it (OpenBundle: a folder
// linked out of its checkout is refused), with the size limit maxFileSize (--max-file-size; 0 when
// not given), else the configuration's max_file_size, else DefaultMaxFileSize; the configuration's
// ignore list applies to every Load through it. The configuration is checked whole (ParseConfig):
// one that cannot be read or used, and a .okf.yml beside it, are a *ConfigError and nothing is
// opened. dir is not looked for (OpenPath finds the root of a path named). The caller closes
// Opened.FileSystem.
func Open(dir string, maxFileSize int64) (*Opened, error) {
	r, err := OpenBundle(dir, maxFileSize)
	if err != nil {
		return nil, err
	}
	o, err := openRoot(r, dir, maxFileSize)
	if err != nil {
		r.Close()
		return nil, err
	}
	return o, nil
}

// OpenFS opens a bundle held in fsys (tests, embedded bundles, archives) as Open opens a folder:
// its configuration checked whole, its size limit and ignore list in force for every Load.
func OpenFS(fsys fs.FS, maxFileSize int64) (*Opened, error) {
	return openRoot(NewFileSystem(fsys, maxFileSize), ".", maxFileSize)
}

func openRoot(r *FileSystem, dir string, maxFileSize int64) (*Opened, error) {
	cfg, err := readConfig(r, dir)
	if err != nil {
		return nil, err
	}
	o := &Opened{FileSystem: r, Config: cfg, Target: Target{Root: dir, Named: dir}}
	if cfg != nil {
		o.Settings = cfg.Settings
	}
	if maxFileSize == 0 && o.Settings.MaxFileSize > 0 {
		o.FileSystem = NewFileSystem(r, o.Settings.MaxFileSize)
	}
	return o, nil
}

// OpenPath is the one opening call of every command: it finds the bundle of the path a user named
// (a folder or a file; Locate), refuses a path in no bundle (*NotBundleError), and opens the root
// (Open). The Opened's Target says which part of the bundle the path names.
func OpenPath(path string, maxFileSize int64) (*Opened, error) {
	ts, _, err := Locate([]string{path}, LocateOptions{})
	if err != nil {
		return nil, err
	}
	o, err := Open(ts[0].Root, maxFileSize)
	if err != nil {
		return nil, err
	}
	o.Target = ts[0]
	return o, nil
}

// readConfig reads and checks the .okf.yaml at r's root (nil when there is none), shown at its
// path from dir.
func readConfig(r *FileSystem, dir string) (*Config, error) {
	shown := func(name string) string { return filepath.ToSlash(filepath.Join(dir, name)) }
	var probs []ConfigProblem
	more := 0
	if _, err := r.Lstat(LegacyConfigName); err == nil {
		probs = append(probs, ConfigProblem{Pos: Position{Path: shown(LegacyConfigName)},
			Msg: fmt.Sprintf("okf reads its configuration from %s, not %s: rename the file", ConfigName, LegacyConfigName)})
	}
	data, err := r.ReadFile(ConfigName)
	var cfg *Config
	switch {
	case errors.Is(err, fs.ErrNotExist):
	case err != nil:
		probs = append(probs, ConfigProblem{Pos: Position{Path: shown(ConfigName)},
			Msg: "cannot read the configuration: " + strings.TrimSuffix(unwrapPath(err).Error(), ": not read")})
	default:
		c, err := ParseConfig(shown(ConfigName), data)
		var ce *ConfigError
		if errors.As(err, &ce) {
			probs, more = append(probs, ce.Problems...), ce.More
		}
		cfg = c
	}
	if len(probs) > 0 {
		return cfg, &ConfigError{Path: probs[0].Pos.Path, Problems: probs, More: more}
	}
	return cfg, nil
}

// Load loads the bundle through o.FileSystem, with the configuration's ignore list added to opts'.
func (o *Opened) Load(opts LoadOptions) (*Bundle, error) {
	opts.Ignore = append(append([]string(nil), o.Settings.Ignore...), opts.Ignore...)
	return LoadFileSystem(o.FileSystem, opts)
}
