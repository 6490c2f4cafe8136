package main

import "fmt"

// countOf writes "1 warning" or "2 warnings".
func countOf(n int, word string) string {
	if n == 1 {
		return fmt.Sprintf("%d %s", n, word)
	}
	return fmt.Sprintf("%d %ss", n, word)
}
