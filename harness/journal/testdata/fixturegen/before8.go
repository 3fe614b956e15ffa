//go:build fixturegen && !since8

package main

// The reconcile outcome was spelled "not-applied" before schema 8.
const notApplied = "not-applied"
