//go:build fixturegen && since8

package main

// From schema 8 the outcome is spelled as the effect is.
const notApplied = "not_applied"
