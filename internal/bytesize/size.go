// Package bytesize reads and writes byte counts as okf's limits are written (--max-file-size, the
// max_file_size configuration key, the sizes in messages): "8MiB" in, "8 MiB" out. It is a leaf that
// okf/ and the commands import, so a limit reads the same in a flag, a configuration file and the
// message that reports it.
package bytesize

import (
	"fmt"
	"strings"
)

// Format shows a byte count the way limits are written: "8 MiB", "512 KiB", "100 bytes", and
// one decimal when not whole ("12.5 MiB").
func Format(n int64) string {
	units := []struct {
		size int64
		name string
	}{{1 << 30, "GiB"}, {1 << 20, "MiB"}, {1 << 10, "KiB"}}
	for _, u := range units {
		if n >= u.size {
			if n%u.size == 0 {
				return fmt.Sprintf("%d %s", n/u.size, u.name)
			}
			return fmt.Sprintf("%.1f %s", float64(n)/float64(u.size), u.name)
		}
	}
	if n == 1 {
		return "1 byte"
	}
	return fmt.Sprintf("%d bytes", n)
}

// Parse reads a size as written on the command line or in .okf.yaml: a number of bytes,
// optionally followed by a unit K, KB, KiB, M, MB, MiB, G, GB or GiB (all binary: 1K = 1024), with
// or without a space ("8MiB", "512 K", "1048576"). It must be positive.
func Parse(s string) (int64, error) {
	t := strings.TrimSpace(s)
	i := 0
	for i < len(t) && t[i] >= '0' && t[i] <= '9' {
		i++
	}
	if i == 0 || i > 15 {
		return 0, fmt.Errorf("want a size such as 8MiB, 512KiB or 1048576, got %q", s)
	}
	var n int64
	for _, c := range t[:i] {
		n = n*10 + int64(c-'0')
	}
	mult := int64(1)
	switch strings.ToLower(strings.TrimSpace(t[i:])) {
	case "", "b":
	case "k", "kb", "kib":
		mult = 1 << 10
	case "m", "mb", "mib":
		mult = 1 << 20
	case "g", "gb", "gib":
		mult = 1 << 30
	default:
		return 0, fmt.Errorf("want a size such as 8MiB, 512KiB or 1048576, got %q", s)
	}
	if n <= 0 {
		return 0, fmt.Errorf("a size must be positive, got %q", s)
	}
	if n > (1<<62)/mult {
		return 0, fmt.Errorf("size %q is too large", s)
	}
	return n * mult, nil
}
