//go:build bindings

package app

// bindingsBuild is true in the `-tags bindings` build that only writes the
// TypeScript bindings (scripts/app-bindings.sh).
const bindingsBuild = true
