package bytesize

import "testing"

// TestSizes reads and writes the sizes of limits as flags, .okf.yaml and messages write them.
func TestSizes(t *testing.T) {
	for in, want := range map[string]int64{"8MiB": 8 << 20, "512 K": 512 << 10, "1048576": 1 << 20, "1g": 1 << 30, "3 MB": 3 << 20, "10b": 10} {
		if got, err := Parse(in); err != nil || got != want {
			t.Errorf("Parse(%q) = %d, %v; want %d", in, got, err, want)
		}
	}
	for _, in := range []string{"", "0", "-1", "8 TiB", "MiB", "1.5M", "99999999999999999999"} {
		if got, err := Parse(in); err == nil {
			t.Errorf("Parse(%q) = %d; want an error", in, got)
		}
	}
	for n, want := range map[int64]string{8 << 20: "8 MiB", 1: "1 byte", 100: "100 bytes", 1536: "1.5 KiB", 200 << 20: "200 MiB", 1 << 30: "1 GiB"} {
		if got := Format(n); got != want {
			t.Errorf("Format(%d) = %q; want %q", n, got, want)
		}
	}
}
