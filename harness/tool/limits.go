package tool

import (
	"errors"
	"time"
)

// Limits bound every call (docs/limits.md). The harness enforces them for native and
// MCP calls alike; a tool never gets to raise them.
type Limits struct {
	CallTimeout        time.Duration // per call; default 75 s
	ProgressEvents     int           // progress events per call; default 64
	ProgressMessage    int           // bytes per progress message; default 4 KB
	ProgressTotalBytes int           // bytes of progress JSON per call; default 16 KB
	ResultBytes        int           // normalized result (structured + text); default 256 KB
}

// Default limits, from docs/limits.md.
const (
	DefaultCallTimeout        = 75 * time.Second
	DefaultProgressEvents     = 64
	DefaultProgressMessage    = 4 << 10
	DefaultProgressTotalBytes = 16 << 10
	DefaultResultBytes        = 256 << 10
)

// DefaultLimits returns the limits of docs/limits.md.
func DefaultLimits() Limits {
	return Limits{
		CallTimeout:        DefaultCallTimeout,
		ProgressEvents:     DefaultProgressEvents,
		ProgressMessage:    DefaultProgressMessage,
		ProgressTotalBytes: DefaultProgressTotalBytes,
		ResultBytes:        DefaultResultBytes,
	}
}

// Fill returns l with every zero field replaced by its default.
func (l Limits) Fill() Limits {
	d := DefaultLimits()
	if l.CallTimeout <= 0 {
		l.CallTimeout = d.CallTimeout
	}
	if l.ProgressEvents <= 0 {
		l.ProgressEvents = d.ProgressEvents
	}
	if l.ProgressMessage <= 0 {
		l.ProgressMessage = d.ProgressMessage
	}
	if l.ProgressTotalBytes <= 0 {
		l.ProgressTotalBytes = d.ProgressTotalBytes
	}
	if l.ResultBytes <= 0 {
		l.ResultBytes = d.ResultBytes
	}
	return l
}

// ErrLimit is wrapped by every error that reports a breached limit; the
// harness stops the turn when a call returns or triggers one.
var ErrLimit = errors.New("limit exceeded")
