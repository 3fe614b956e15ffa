// Package app is the Wails-bound facade of the desktop app: bound methods and events over harness/. It is the only package that imports the Wails runtime.
package app
