//go:build !linux

package testbus

import "os/exec"

// setDeathSignal: only Linux has a parent-death signal; elsewhere Stop
// ends the daemon.
func setDeathSignal(*exec.Cmd) {}
