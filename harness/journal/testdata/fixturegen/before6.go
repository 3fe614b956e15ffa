//go:build fixturegen && !since6

package main

// Sessions could not be continued before schema 6.
func reopen(*gen, string) {}
