// Package darwin is the macOS platform adapter: osascript notifications and dialogs, every string passed as an argument to an 'on run argv' script.
package darwin
