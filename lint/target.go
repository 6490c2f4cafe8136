package lint

import (
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"

	"github.com/okf-tools/okf/okf"
)

// LegacyConfigName is the configuration name okf does not read (okf.LegacyConfigName).
const LegacyConfigName = okf.LegacyConfigName

// Target is one bundle `okf lint` was asked to check, and which of its findings to report: where
// okf.Locate placed the paths named (Filter keeps the findings of the files they name).
type Target = okf.Target

// UsageError is a problem with the paths named (exit 2 in the CLI): okf's.
type UsageError = okf.PathError

// FindRoot is the one rule every command finds a bundle root by (okf.FindRoot).
func FindRoot(dir string) (root string, ok bool) { return okf.FindRoot(dir) }

// ResolveTargets places the paths named on `okf lint`'s command line in their bundles, as every
// command does (okf.Locate); rootFlag is --root.
func ResolveTargets(args []string, rootFlag string, skipUnbundled bool) ([]Target, []string, error) {
	return okf.Locate(args, okf.LocateOptions{Root: rootFlag, SkipUnbundled: skipUnbundled})
}

// ResolveStdin places the file an editor sends on standard input (okf.LocateStdin).
func ResolveStdin(name, rootFlag string) (Target, error) { return okf.LocateStdin(name, rootFlag) }

// LoadConfig returns okf lint's configuration of the bundle o opened: its .okf.yaml (checked whole
// when it was opened), or the file flag names (--config) for lint's own keys, checked the same way:
// read through the bundle's FileSystem, confined, when it lies inside the bundle; else as the
// user's own file, capped at the FileSystem's limit. display is how to show the flag's file (empty
// for a file in the bundle). A flag's file that cannot be read is a *UsageError; one with problems
// a *okf.ConfigError. The bundle-wide settings (ignore, max_file_size) are always the bundle's own,
// so that a file is in the bundle for okf lint exactly when it is for every other command: a
// --config file setting them is refused.
func LoadConfig(o *okf.Opened, flag string) (cfg *Config, display string, err error) {
	RegisterRuleNames()
	if flag == "" {
		if o.Config == nil {
			return nil, "", nil
		}
		return fromOKF(o.Config, ConfigName), "", nil
	}
	r := o.FileSystem
	var data []byte
	name := filepath.ToSlash(flag)
	if rel, ok := r.Rel(flag); ok {
		data, err = r.ReadFile(rel)
		name = rel
	} else {
		data, err = okf.ReadFileLimit(flag, r.MaxFileSize())
		display = name
	}
	if err != nil {
		return nil, "", &UsageError{Msg: fmt.Sprintf("--config: cannot read %q: %v", flag, unwrapPathErr(err))}
	}
	shown := name
	if display == "" {
		shown = filepath.ToSlash(filepath.Join(o.Target.Root, name))
	}
	c, err := okf.ParseConfig(shown, data)
	var probs []okf.ConfigProblem
	more := 0
	var ce *okf.ConfigError
	if errors.As(err, &ce) {
		probs, more = ce.Problems, ce.More
	}
	if len(c.Ignore) > 0 || c.MaxFileSize > 0 {
		probs = append(probs, okf.ConfigProblem{Pos: okf.Position{Path: shown, Line: 1, Col: 1},
			Msg: "ignore and max_file_size decide which files are in the bundle for every command: set them in the bundle's " + okf.ConfigName + ", not in a --config file"})
	}
	if len(probs) > 0 {
		return nil, "", &okf.ConfigError{Path: shown, Problems: probs, More: more}
	}
	cfg = fromOKF(c, name)
	cfg.Ignore, cfg.MaxFileSize = o.Settings.Ignore, o.Settings.MaxFileSize
	return cfg, display, nil
}

func unwrapPathErr(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}
