//go:build fixturegen && !since9

package main

import "github.com/openworker/desktop/harness/journal"

// Invocations had no placement and warnings no tool before schema 9.
func place(*journal.Invocation, string) {}

func toolWarning(*gen, string, string, string) {}
