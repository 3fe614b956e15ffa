package mcp

import "golang.org/x/sys/unix"

// BecomeSubreaper makes this process the child subreaper of its
// descendants (PR_SET_CHILD_SUBREAPER): a provider's grandchild whose
// parent exits is adopted here rather than by init, so it stays within
// reach of a provider's stop, which kills it and reaps it
// (docs/mcp.md#process-tree). The app and the CLI call it at start.
func BecomeSubreaper() error { return unix.Prctl(unix.PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) }
