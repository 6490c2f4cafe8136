package okf

import (
	"errors"
	"reflect"
	"testing"
)

func TestTagsFromString(t *testing.T) {
	for _, c := range []struct {
		in   string
		want []string
		ok   bool
	}{
		{"sales, orders", []string{"sales", "orders"}, true},
		{"sales", []string{"sales"}, true},
		{" a ,, b ,", []string{"a", "b"}, true},
		{"a,bc", []string{"a", "bc"}, true},
		{"[okf, producer, agent, protocol]", []string{"okf", "producer", "agent", "protocol"}, true},
		{"[okf]", []string{"okf"}, true},
		{`["a b", 'c']`, []string{"a b", "c"}, true},
		{"[2026, true]", []string{"2026", "true"}, true},
		{"[a, [b]]", nil, false},
		{"[a, {b: c}]", nil, false},
		{"[a, b", nil, false},
		{"a, [b", nil, false},
		{"a, b]", nil, false},
		{`a, "b, c"`, nil, false},
		{"don't, x", nil, false},
		{"{a: b}", nil, false},
		{"[]", nil, false},
		{"", nil, false},
		{" , ", nil, false},
		{"[a, '']", nil, false},
	} {
		got, ok := TagsFromString(c.in)
		if ok != c.ok || !reflect.DeepEqual(got, c.want) {
			t.Errorf("TagsFromString(%q) = %q, %v; want %q, %v", c.in, got, ok, c.want, c.ok)
		}
	}
}

func TestProveEdit(t *testing.T) {
	prev := "---\ntype: Note # c\ntags: \"[okf, agent]\"\nalias: &a {x: 1}\nuse: *a\n---\nBody.\n"
	tags := Change{Path: []string{"tags"}, Value: StrList([]string{"okf", "agent"})}
	for _, c := range []struct {
		name, next string
		changes    []Change
		ok         bool
	}{
		{"the intended list", "---\ntype: Note # c\ntags: [okf, agent]\nalias: &a {x: 1}\nuse: *a\n---\nBody.\n", []Change{tags}, true},
		{"split on its commas", "---\ntype: Note # c\ntags: [\"[okf\", \"agent]\"]\nalias: &a {x: 1}\nuse: *a\n---\nBody.\n", []Change{tags}, false},
		{"a list of a list", "---\ntype: Note # c\ntags: [[okf, agent]]\nalias: &a {x: 1}\nuse: *a\n---\nBody.\n", []Change{tags}, false},
		{"another key moved", "---\ntype: Note2 # c\ntags: [okf, agent]\nalias: &a {x: 1}\nuse: *a\n---\nBody.\n", []Change{tags}, false},
		{"an alias broken", "---\ntype: Note # c\ntags: [okf, agent]\nalias: &a {x: 1}\nuse: {x: 2}\n---\nBody.\n", []Change{tags}, false},
		{"the same alias written out", "---\ntype: Note\ntags: [okf, agent]\nalias: {x: 1}\nuse: {x: 1}\n---\nBody.\n", []Change{tags}, true},
		{"a key added", "---\ntype: Note # c\ntags: [okf, agent]\nalias: &a {x: 1}\nuse: *a\nz: 1\n---\nBody.\n", []Change{tags}, false},
		{"a key dropped", "---\ntype: Note # c\ntags: [okf, agent]\nalias: &a {x: 1}\n---\nBody.\n", []Change{tags}, false},
		{"the body changed", "---\ntype: Note # c\ntags: [okf, agent]\nalias: &a {x: 1}\nuse: *a\n---\nBody!\n", []Change{tags}, false},
		{"a number quoted differently", "---\ntype: Note # c\ntags: \"[okf, agent]\"\nalias: &a {x: \"1\"}\nuse: *a\n---\nBody.\n", nil, false},
		{"no change, other quoting", "---\ntype: 'Note'\ntags: '[okf, agent]'\nalias: &a {x: 1}\nuse: *a\n---\nBody.\n", nil, true},
		{"unterminated", "---\ntype: Note\n", nil, false},
		{"renamed", "---\ntype: Note # c\nlabels: \"[okf, agent]\"\nalias: &a {x: 1}\nuse: *a\n---\nBody.\n", []Change{{Path: []string{"labels"}, From: []string{"tags"}}}, true},
	} {
		err := ProveEdit([]byte(prev), []byte(c.next), c.changes...)
		if (err == nil) != c.ok {
			t.Errorf("%s: ProveEdit = %v, want ok=%v", c.name, err, c.ok)
		}
		if err != nil && !errors.Is(err, ErrUnproven) {
			t.Errorf("%s: %v does not wrap ErrUnproven", c.name, err)
		}
	}
}

func TestValuePaths(t *testing.T) {
	src := []byte("---\ntype: Note\ngenerated: {by: x, at: 2026-01-01}\nverified:\n  - by: human:a\n    at: \"2026-02-02\"\ntags: [a, é, 2026]\n---\n")
	paths := ValuePaths(src)
	want := map[string][]string{
		"Note": {"type"}, "x": {"generated", "by"}, "2026-01-01": {"generated", "at"},
		"human:a": {"verified", "0", "by"}, `"2026-02-02"`: {"verified", "0", "at"}, "2026]": {"tags", "2"},
	}
	for text, p := range want {
		off := indexOf(src, text)
		if got := paths[off]; !reflect.DeepEqual(got, p) {
			t.Errorf("value %q at %d: path %q, want %q", text, off, got, p)
		}
	}
}

func indexOf(src []byte, s string) int {
	for i := 0; i+len(s) <= len(src); i++ {
		if string(src[i:i+len(s)]) == s {
			return i
		}
	}
	return -1
}
