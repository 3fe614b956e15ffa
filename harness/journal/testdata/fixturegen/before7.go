//go:build fixturegen && !since7

package main

import "github.com/openworker/desktop/harness/journal"

// Turns had no model or approval mode of their own before schema 7.
func turnWith(t journal.Turn, _, _ string) journal.Turn { return t }
