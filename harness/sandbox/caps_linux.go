package sandbox

import (
	"errors"
	"fmt"

	"golang.org/x/sys/unix"
)

// dropCapabilities leaves this thread, and what it executes, without
// capabilities: when OpenWorker runs as root (a container, a CI machine)
// a provider would otherwise keep root's, which Landlock does not confine
// (loading a kernel module, rebooting, changing the firewall). It empties
// the bounding set, so that executing a program as root grants nothing,
// clears the ambient set, then the effective, permitted and inheritable
// sets. A process without capabilities has nothing to drop; no-new-privs
// already keeps programs with file capabilities or set-user-ID from
// granting any.
func dropCapabilities() error {
	hdr := unix.CapUserHeader{Version: unix.LINUX_CAPABILITY_VERSION_3}
	var data [2]unix.CapUserData
	if err := unix.Capget(&hdr, &data[0]); err != nil {
		return fmt.Errorf("read the capabilities: %w", err)
	}
	if data[0].Permitted|data[1].Permitted|data[0].Inheritable|data[1].Inheritable == 0 {
		return nil
	}
	for c := 0; ; c++ {
		err := unix.Prctl(unix.PR_CAPBSET_DROP, uintptr(c), 0, 0, 0)
		if errors.Is(err, unix.EINVAL) {
			break // past the last capability this kernel knows
		}
		if err != nil {
			return fmt.Errorf("drop capability %d from the bounding set: %w", c, err)
		}
	}
	if err := unix.Prctl(unix.PR_CAP_AMBIENT, unix.PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0); err != nil && !errors.Is(err, unix.EINVAL) {
		return fmt.Errorf("clear the ambient capabilities: %w", err)
	}
	data = [2]unix.CapUserData{}
	if err := unix.Capset(&hdr, &data[0]); err != nil {
		return fmt.Errorf("drop the capabilities: %w", err)
	}
	return nil
}
