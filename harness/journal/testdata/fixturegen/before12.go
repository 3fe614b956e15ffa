//go:build fixturegen && !since12

package main

// There were no elicitations before schema 12.
func elicitations(*gen, string, string) {}
