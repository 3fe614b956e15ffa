//go:build fixturegen && !since11

package main

// Sessions had no titles or hidden flags before schema 11.
func labels(*gen, string, string) {}
