package okf

import (
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"
)

// dumpNode writes a node tree with every field yaml.v3 sets, one node a line, for comparing trees
// in messages (a copy of the fast path's test helper, okf/internal/fastyaml, which okf's tests
// cannot import).
func dumpNode(n *yaml.Node) string {
	if n == nil {
		return "<nil>"
	}
	var b strings.Builder
	var walk func(n *yaml.Node, depth int)
	walk = func(n *yaml.Node, depth int) {
		b.WriteString("\n" + strings.Repeat("  ", depth))
		b.WriteString(strings.Join([]string{
			"kind=" + strconv.Itoa(int(n.Kind)), "style=" + strconv.Itoa(int(n.Style)), "tag=" + n.Tag, "value=" + n.Value,
			"at=" + strconv.Itoa(n.Line) + ":" + strconv.Itoa(n.Column), "hc=" + n.HeadComment, "lc=" + n.LineComment, "fc=" + n.FootComment,
		}, " "))
		for _, c := range n.Content {
			walk(c, depth+1)
		}
	}
	walk(n, 0)
	return b.String()
}
