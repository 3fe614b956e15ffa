// Package architecture holds no code: its tests keep docs/architecture.md
// true. architecture_test.go fails when a package imports across a line
// the document draws (go list -deps), and anchors_test.go fails when a
// comment, script or document names a docs/*.md#anchor that does not exist.
package architecture
