package okf

// xorshift returns a small deterministic generator of ints in [0, n) for the differential tests: the
// same seed draws the same cases on every run and machine.
func xorshift(seed uint64) func(n int) int {
	r := seed
	return func(n int) int {
		r ^= r << 13
		r ^= r >> 7
		r ^= r << 17
		return int(r % uint64(n))
	}
}
