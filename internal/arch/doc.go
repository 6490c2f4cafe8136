// Package arch holds the test that keeps the import graph the shape the project's owner asked for.
package arch
