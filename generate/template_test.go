package generate

import (
	"strings"
	"testing"
)

// TestStripTemplates: every engine's template and component syntax goes, the prose stays.
func TestStripTemplates(t *testing.T) {
	for in, want := range map[string]string{
		"Hi {% youtubeEmbed \"abc\" %} there.":                            "Hi there.",
		"A {{ site.title }} B.":                                           "A B.",
		"Keep {% highlight go %}x := 1{% endhighlight %} this.":           "Keep this.",
		"Ok {# a comment #} yes.":                                         "Ok yes.",
		"## Why it works {#why}":                                          "## Why it works",
		"Use :icon{name=\"mdi:home\"} and :badge[New]{type=info} now.":    "Use and New now.",
		"Text {: .lead} here.":                                            "Text here.",
		"Code `{{ keep }}` stays.":                                        "Code `{{ keep }}` stays.",
		"A {{< figure src=x >}} B {{% notice %}}hidden{{% /notice %}} C.": "A B C.",
		"http://example.com:8080{x} is text.":                             "http://example.com:8080{x} is text.",
	} {
		got := strings.Join(strings.Fields(StripMDX(in, false)), " ")
		want = strings.Join(strings.Fields(want), " ")
		if got != want {
			t.Errorf("StripMDX(%q) = %q, want %q", in, got, want)
		}
	}
	body := "::important{title=\"x\"}\nHidden callout.\n::\n\n::: tip\nA tip.\n:::\n\nThe prose.\n"
	if got := StripMDX(body, false); got != "The prose." {
		t.Errorf("blocks: %q", got)
	}
	vue := "Hello.\n\n<script setup>\nimport { ref } from \"vue\"\nconst count = ref(0)\n</script>\n\n<style>\n.a { color: red }\n</style>\n\nThe prose.\n"
	if got := StripMDX(vue, false); got != "Hello.\n\nThe prose." {
		t.Errorf("script and style: %q", got)
	}
	if got := CleanInline("Title {{< ref x >}} with {% raw %}x{% endraw %} end {#id}", false); got != "Title with end" {
		t.Errorf("CleanInline: %q", got)
	}
}
