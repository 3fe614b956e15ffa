//go:build fixturegen && !since13

package main

// There were no handles before schema 13.
func handle(*gen, string) {}
