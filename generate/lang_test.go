package generate

import (
	"strings"
	"testing"
)

// TestTranslationsByFileName: Hugo and Zola read hello.fr.md as the French translation of hello
// when the configuration declares fr: it is published below /fr/ (not for the default language,
// unless Hugo's defaultContentLanguageInSubdir), index.fr.md is its bundle's index, and the
// concept is named for the post and its language, not "hello.fr" or "index.fr"
// (https://gohugo.io/content-management/multilingual/#translation-by-file-name,
// https://www.getzola.org/documentation/content/multilingual/).
func TestTranslationsByFileName(t *testing.T) {
	for _, tc := range []struct {
		name, configName, config string
		posts                    []string
		want                     []string // concept=resource
	}{
		{"hugo", "hugo.toml", "baseURL = 'https://h.example/'\ndefaultContentLanguage = 'en'\n[languages.en]\nweight = 1\n[languages.fr]\nweight = 2\n",
			[]string{"posts/hello.md", "posts/hello.fr.md", "posts/bundle/index.fr.md", "posts/plain.en.md", "posts/v1.2.md"},
			[]string{"hello=https://h.example/posts/hello/", "hello-fr=https://h.example/fr/posts/hello/", "bundle-fr=https://h.example/fr/posts/bundle/",
				"plain=https://h.example/posts/plain/", "v1.2=https://h.example/posts/v1.2/"}},
		{"hugo-subdir", "hugo.toml", "baseURL = 'https://h.example/'\ndefaultContentLanguageInSubdir = true\n[languages.en]\n[languages.fr]\n",
			[]string{"posts/hello.en.md", "posts/hello.fr.md"},
			[]string{"hello=https://h.example/en/posts/hello/", "hello-fr=https://h.example/fr/posts/hello/"}},
		{"hugo-nolang", "hugo.toml", "baseURL = 'https://h.example/'\n",
			[]string{"posts/hello.fr.md"},
			[]string{"hello.fr=https://h.example/posts/hello.fr/"}},
		{"zola", "config.toml", "base_url = 'https://z.example'\ndefault_language = 'en'\n[languages.fr]\ntitle = 'Fr'\n",
			[]string{"blog/hello.md", "blog/hello.fr.md", "blog/post/index.fr.md"},
			[]string{"hello=https://z.example/blog/hello/", "hello-fr=https://z.example/fr/blog/hello/", "post-fr=https://z.example/fr/blog/post/"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			site := t.TempDir()
			files := map[string]string{tc.configName: tc.config}
			for _, p := range tc.posts {
				files["content/"+p] = "---\ntitle: T\ndate: 2024-01-02\n---\nText.\n"
			}
			writeFiles(t, site, files)
			plan := run(t, Options{Posts: site + "/content", Out: t.TempDir(), All: true, Now: t0})
			for _, w := range tc.want {
				name, url, _ := strings.Cut(w, "=")
				if got := fileOf(plan, "concepts/"+name+".md"); !strings.Contains(got, "  - resource: "+url+"\n") {
					t.Errorf("%s: want resource %s; concepts %v\n%s", name, url, actionsOf(plan), got)
				}
			}
		})
	}
}
