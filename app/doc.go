// Package app is the desktop app over harness/: the services the window
// calls (Window, Chats, Coworkers, Preferences, Servers, Extensions,
// Activity, Asks, Views), reached only through the Gate and its
// per-launch token (gate.go, docs/mcp-apps.md#bindings), and the events it
// sends the window (events.go). The services share parts with locks of
// their own, none held across I/O; docs/app.md#where-things-live maps
// services to files and screens. Run starts the window; it is the only
// package that imports the Wails runtime.
package app
