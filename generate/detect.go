package generate

import (
	"encoding/json"
	"fmt"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"

	"github.com/BurntSushi/toml"
	"go.yaml.in/yaml/v3"
)

// Site is what gen knows of the blog's site from the repository around the posts folder: the
// engine, the file that told it, and what the engine's declarative configuration says.
type Site struct {
	// Engine is the engine's name; From the marker file or folder that named it ("" when none
	// was found and the engine is the default, or was named with --engine and has no marker).
	Engine, From string
	// Root is the site's folder (where From lies); PostsRel the posts folder relative to it, as a
	// slash path ("" when Root is unknown).
	Root, PostsRel string
	// URL is the site's base URL from its configuration (Jekyll's url + baseurl, Hugo's baseURL,
	// Zola's base_url); "" when the configuration is code or names none.
	URL string
	// Code is true when the engine's configuration is JavaScript/TypeScript, which gen does not
	// run: the engine's documented defaults are used.
	Code bool
	// Jekyll holds the permalink settings of a Jekyll _config.yml.
	Jekyll *jekyllConfig
	// HugoPermalinks maps a Hugo section to its page permalink pattern ([permalinks]).
	HugoPermalinks map[string]string
	// HugoContent are Hugo's content folders (contentDir, each language's contentDir) with the
	// URL prefix of their language ("" for the default language unless it is in a subfolder).
	HugoContent []hugoContent
	// HugoKeepCase is Hugo's disablePathToLower: URLs keep the case of their paths.
	HugoKeepCase bool
	// Languages are the languages a Hugo or Zola configuration declares, lowercased, each with
	// the URL prefix of its pages ("" for the default language unless Hugo puts it in a
	// subfolder); DefaultLang is the default language. They name translations by file name
	// (hello.fr.md).
	Languages   map[string]string
	DefaultLang string
}

type hugoContent struct{ Dir, Prefix string }

// marker is a file or folder whose presence names an engine.
type marker struct {
	engine string
	names  []string
	dir    bool // a folder, not a file
	code   bool // the configuration is code (JS/TS)
	with   string
}

func jsNames(base string, exts ...string) []string {
	if len(exts) == 0 {
		exts = []string{"js", "mjs", "cjs", "ts", "mts", "cts"}
	}
	var n []string
	for _, e := range exts {
		n = append(n, base+"."+e)
	}
	return n
}

// markers are checked in this order in each folder, from the posts folder up to the repository
// root; the first found wins. config.toml/config.yaml are Hugo's or Zola's: the keys inside tell.
var markers = []marker{
	{engine: "jekyll", names: []string{"_config.yml", "_config.yaml"}},
	{engine: "hugo", names: []string{"hugo.toml", "hugo.yaml", "hugo.yml", "hugo.json"}},
	{engine: "hugo", names: []string{"config/_default"}, dir: true},
	{engine: "zola", names: []string{"zola.toml"}},
	{engine: "?toml", names: []string{"config.toml", "config.yaml", "config.yml"}},
	{engine: "docusaurus", names: jsNames("docusaurus.config"), code: true},
	{engine: "astro", names: jsNames("astro.config"), code: true},
	{engine: "vitepress", names: []string{".vitepress"}, dir: true, code: true},
	{engine: "eleventy", names: append(jsNames("eleventy.config"), ".eleventy.js"), code: true},
	{engine: "nuxt", names: jsNames("nuxt.config"), code: true, with: "content"},
	{engine: "nextjs", names: jsNames("contentlayer.config"), code: true},
	{engine: "gatsby", names: jsNames("gatsby-config"), code: true},
	{engine: "remix", names: jsNames("remix.config"), code: true},
}

// maxDetectDepth bounds the walk up from the posts folder.
const maxDetectDepth = 32

// DetectSite finds the blog's engine from the repository around posts: each folder from posts up
// to the repository root (the first folder holding .git, else the file system's root) is looked
// at for the markers above, nearest folder first. With engine set (--engine), only that engine's
// markers are looked for, to read its configuration; an engine with none is still used. Config
// files are read as posts are (regular files only, within maxSize). A configuration that cannot
// be read is an error naming it.
func DetectSite(posts, engine string, maxSize int64) (*Site, error) {
	if e, err := LookupEngine(engine); engine != "" && err == nil {
		engine = e.Name // contentlayer, 11ty, nuxt-content
	}
	abs, err := filepath.Abs(posts)
	if err != nil {
		return nil, err
	}
	site := &Site{Engine: engine}
	dir := abs
	for range maxDetectDepth {
		found, err := detectIn(dir, engine, maxSize, site)
		if err != nil {
			return nil, err
		}
		if found {
			rel, err := filepath.Rel(site.Root, abs)
			if err == nil {
				site.PostsRel = filepath.ToSlash(rel)
			}
			return site, nil
		}
		if _, err := os.Lstat(filepath.Join(dir, ".git")); err == nil {
			break // the repository's root
		}
		up := filepath.Dir(dir)
		if up == dir {
			break
		}
		dir = up
	}
	if site.Engine == "" {
		site.Engine = DefaultEngine
	}
	return site, nil
}

// detectIn looks for the markers in one folder.
func detectIn(dir, engine string, maxSize int64, site *Site) (bool, error) {
	for _, m := range markers {
		if engine != "" && m.engine != engine && !(m.engine == "?toml" && (engine == "hugo" || engine == "zola")) {
			continue
		}
		for _, name := range m.names {
			fi, err := os.Lstat(filepath.Join(dir, filepath.FromSlash(name)))
			if err != nil || fi.IsDir() != m.dir {
				continue
			}
			if m.with != "" {
				if fi, err := os.Lstat(filepath.Join(dir, m.with)); err != nil || !fi.IsDir() {
					continue
				}
			}
			eng := m.engine
			var src []byte
			if !m.dir && !m.code {
				if src, err = readConfigFile(dir, name, maxSize); err != nil {
					return false, err
				}
			}
			if m.dir && eng == "hugo" {
				for _, n := range []string{"hugo.toml", "config.toml", "hugo.yaml", "config.yaml"} {
					if b, err := readConfigFile(filepath.Join(dir, "config", "_default"), n, maxSize); err == nil {
						src, name = b, "config/_default/"+n
						break
					}
				}
			}
			var conf map[string]any
			if src != nil {
				if conf, err = decodeConfig(name, src); err != nil {
					return false, fmt.Errorf("%s: %v", filepath.Join(dir, filepath.FromSlash(name)), err)
				}
			}
			if eng == "?toml" {
				switch {
				case conf["base_url"] != nil:
					eng = "zola"
				case confString(conf, "baseURL") != "":
					eng = "hugo"
				default:
					continue // some other tool's config file
				}
				if engine != "" && eng != engine {
					continue
				}
			}
			site.Engine, site.From, site.Root, site.Code = eng, filepath.Join(dir, filepath.FromSlash(name)), dir, m.code
			switch eng {
			case "jekyll":
				site.URL = strings.TrimRight(confString(conf, "url"), "/")
				if site.URL != "" {
					if b := strings.Trim(confString(conf, "baseurl"), "/"); b != "" {
						site.URL += "/" + b
					}
				}
				site.Jekyll = parseJekyllConfig(conf)
			case "hugo":
				site.URL = confString(conf, "baseURL")
				site.HugoPermalinks = hugoPermalinks(conf)
				site.HugoContent = hugoContentDirs(conf)
				for k, v := range conf {
					if strings.EqualFold(k, "disablePathToLower") {
						site.HugoKeepCase, _ = v.(bool)
					}
				}
				site.Languages, site.DefaultLang = hugoLanguages(conf)
			case "zola":
				site.URL = confString(conf, "base_url")
				site.Languages, site.DefaultLang = zolaLanguages(conf)
			}
			if u, err := url.Parse(site.URL); site.URL != "" && (err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "") {
				site.URL = "" // not an absolute http(s) URL (a local preview address, a template): --site
			}
			site.URL = strings.TrimRight(site.URL, "/")
			return true, nil
		}
	}
	return false, nil
}

// hugoPermalinks reads Hugo's [permalinks]: section = pattern (the old form, for pages), or
// [permalinks.page] section = pattern.
func hugoPermalinks(conf map[string]any) map[string]string {
	var pl map[string]any
	for k, v := range conf {
		if strings.EqualFold(k, "permalinks") {
			pl, _ = v.(map[string]any)
		}
	}
	if page, ok := pl["page"].(map[string]any); ok {
		pl = page
	}
	out := map[string]string{}
	for k, v := range pl {
		if s, ok := v.(string); ok {
			out[k] = s
		}
	}
	return out
}

// hugoLanguages reads Hugo's [languages]: each is published below /<lang>/ but the default
// (defaultContentLanguage, default en) unless defaultContentLanguageInSubdir.
func hugoLanguages(conf map[string]any) (map[string]string, string) {
	get := func(key string) any {
		for k, v := range conf {
			if strings.EqualFold(k, key) {
				return v
			}
		}
		return nil
	}
	def, _ := get("defaultContentLanguage").(string)
	if def = strings.ToLower(strings.TrimSpace(def)); def == "" {
		def = "en"
	}
	inSubdir, _ := get("defaultContentLanguageInSubdir").(bool)
	langs, _ := get("languages").(map[string]any)
	if len(langs) == 0 {
		return nil, def
	}
	out := map[string]string{}
	for lang := range langs {
		l := strings.ToLower(lang)
		out[l] = l
		if l == def && !inSubdir {
			out[l] = ""
		}
	}
	return out, def
}

// zolaLanguages reads Zola's languages: [languages.<code>] tables (or the older list of
// {code = …}), each below /<code>/, and default_language (default en) at the root.
func zolaLanguages(conf map[string]any) (map[string]string, string) {
	def := strings.ToLower(confString(conf, "default_language"))
	if def == "" {
		def = "en"
	}
	out := map[string]string{}
	switch langs := conf["languages"].(type) {
	case map[string]any:
		for lang := range langs {
			out[strings.ToLower(lang)] = strings.ToLower(lang)
		}
	case []any:
		for _, v := range langs {
			if m, ok := v.(map[string]any); ok {
				if c := strings.ToLower(confString(m, "code")); c != "" {
					out[c] = c
				}
			}
		}
	}
	if len(out) == 0 {
		return nil, def
	}
	out[def] = ""
	return out, def
}

// hugoContentDirs reads Hugo's content folders: contentDir (default content) and each
// [languages.<lang>] contentDir; a language other than defaultContentLanguage (default en), or
// every language with defaultContentLanguageInSubdir, is published below /<lang>/. Longest first.
func hugoContentDirs(conf map[string]any) []hugoContent {
	get := func(m map[string]any, key string) any {
		for k, v := range m {
			if strings.EqualFold(k, key) {
				return v
			}
		}
		return nil
	}
	def, _ := get(conf, "defaultContentLanguage").(string)
	if def == "" {
		def = "en"
	}
	inSubdir, _ := get(conf, "defaultContentLanguageInSubdir").(bool)
	top, _ := get(conf, "contentDir").(string)
	if top == "" {
		top = "content"
	}
	dirs := []hugoContent{{Dir: strings.Trim(top, "/")}}
	langs, _ := get(conf, "languages").(map[string]any)
	for lang, v := range langs {
		m, _ := v.(map[string]any)
		d, _ := get(m, "contentDir").(string)
		if d = strings.Trim(path.Clean("/"+d), "/"); d == "" {
			continue
		}
		prefix := lang
		if strings.EqualFold(lang, def) && !inSubdir {
			prefix = ""
		}
		dirs = append(dirs, hugoContent{Dir: d, Prefix: strings.ToLower(prefix)})
	}
	sort.SliceStable(dirs, func(i, j int) bool {
		if len(dirs[i].Dir) != len(dirs[j].Dir) {
			return len(dirs[i].Dir) > len(dirs[j].Dir)
		}
		return dirs[i].Dir < dirs[j].Dir
	})
	return dirs
}

// readConfigFile reads one configuration file through the confined door posts are read by.
func readConfigFile(dir, name string, maxSize int64) ([]byte, error) {
	c, err := openConfined(dir, maxSize)
	if err != nil {
		return nil, err
	}
	defer c.Close()
	b, err := c.ReadPost(filepath.ToSlash(name))
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", filepath.Join(dir, name), err)
	}
	return b, nil
}

// decodeConfig reads a declarative configuration (YAML, TOML or JSON) into a map; nested
// tables are bounded as TOML frontmatter is.
func decodeConfig(name string, src []byte) (map[string]any, error) {
	m := map[string]any{}
	switch {
	case strings.HasSuffix(name, ".toml"):
		if _, prob := tomlAsYAML(name, src); prob != nil {
			return nil, fmt.Errorf("line %d: %s", prob.Pos.Line-1, prob.Message)
		}
		if _, err := toml.Decode(string(src), &m); err != nil {
			return nil, fmt.Errorf("not valid TOML: %s", strings.ReplaceAll(err.Error(), "\n", " "))
		}
	case strings.HasSuffix(name, ".json"):
		if err := json.Unmarshal(src, &m); err != nil {
			return nil, fmt.Errorf("not valid JSON: %v", err)
		}
	default:
		if err := yaml.Unmarshal(src, &m); err != nil {
			return nil, fmt.Errorf("not valid YAML: %v", err)
		}
	}
	return m, nil
}

// confString is a top-level string setting; keys compare case-insensitively (Hugo's baseURL is
// also written baseurl).
func confString(m map[string]any, key string) string {
	for k, v := range m {
		if strings.EqualFold(k, key) {
			if s, ok := v.(string); ok {
				return strings.TrimSpace(s)
			}
		}
	}
	return ""
}

// Describe says in one line which engine gen follows and why, for the run's note.
func (s *Site) Describe() string {
	if s.From == "" {
		return ""
	}
	msg := fmt.Sprintf("engine %s (from %s)", s.Engine, s.From)
	if s.Code {
		msg += "; its configuration is code, which gen does not run: the engine's documented defaults are used (--url, --site and --engine override)"
	}
	return msg
}
