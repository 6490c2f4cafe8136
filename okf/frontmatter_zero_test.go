package okf

import (
	"fmt"
	"reflect"
	"testing"
)

// TestFrontmatterZeroSafe reads a zero Frontmatter, and one that only says Present, through every
// exported field and every exported method: a caller building one by hand (a test, a tool) or
// reading a concept whose frontmatter could not be read gets absent values, never a panic.
func TestFrontmatterZeroSafe(t *testing.T) {
	for _, fm := range []*Frontmatter{{}, {Present: true}} {
		v := reflect.ValueOf(fm).Elem()
		for _, f := range reflect.VisibleFields(v.Type()) {
			if !f.IsExported() {
				continue
			}
			if err := noPanic(func() { _ = v.FieldByIndex(f.Index).Interface() }); err != nil {
				t.Errorf("Frontmatter{Present: %v}.%s: %v", fm.Present, f.Name, err)
			}
		}
		pv := reflect.ValueOf(fm)
		for i := 0; i < pv.NumMethod(); i++ {
			m := pv.Type().Method(i)
			args := make([]reflect.Value, m.Type.NumIn()-1)
			for j := range args {
				args[j] = reflect.Zero(m.Type.In(j + 1))
			}
			if err := noPanic(func() { pv.Method(i).Call(args) }); err != nil {
				t.Errorf("Frontmatter{Present: %v}.%s(): %v", fm.Present, m.Name, err)
			}
		}
	}
}

func noPanic(f func()) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("panics: %v", r)
		}
	}()
	f()
	return nil
}

// TestFrontmatterRareKeys checks each of the rarely written keys reads the same through the
// Frontmatter whether or not the concept writes the others.
func TestFrontmatterRareKeys(t *testing.T) {
	c, _ := ParseConcept("a.md", []byte("---\ntype: Attested Computation\nruntime: sqlite\nstale_after: 2026-01-01T00:00:00Z\nokf_version: \"0.2\"\nusage_window: {from: 2026-01-01, to: 2026-02-01}\nparameters: [{name: y}]\ncomputation: SELECT 1\nexecutor: {resource: x}\nattester: {resource: builtin:sql-equality}\n---\n# T\n"))
	fm := c.Frontmatter
	got := fmt.Sprint(fm.Runtime().Text(), " ", fm.StaleAfter().Raw, " ", fm.OKFVersion().Raw, " ", fm.UsageWindow().From.Raw, " ",
		len(fm.Parameters().Items), " ", fm.Computation().Text(), " ", fm.Executor().Resource.Text(), " ", fm.Attester().Resource.Text())
	if want := "sqlite 2026-01-01T00:00:00Z 0.2 2026-01-01 1 SELECT 1 x builtin:sql-equality"; got != want {
		t.Errorf("rare keys read %q, want %q", got, want)
	}
	plain, _ := ParseConcept("b.md", []byte("---\ntype: Table\n---\n# T\n"))
	if fm := plain.Frontmatter; fm.StaleAfter().Present() || fm.Runtime().Present() || fm.UsageWindow() != nil || fm.Executor() != nil || fm.Attester() != nil {
		t.Errorf("a concept without the rare keys reads some")
	}
}
