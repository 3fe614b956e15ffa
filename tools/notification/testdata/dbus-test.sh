#!/bin/sh
# Runs the D-Bus notification tests on a private session bus.
# Needs dbus-run-session (Debian/Ubuntu: apt-get install -y dbus).
# Run from anywhere inside the module.
set -eu
cd "$(dirname "$0")/../../.."
command -v dbus-run-session >/dev/null 2>&1 || {
	echo "dbus-run-session not found: apt-get install -y dbus" >&2
	exit 2
}
exec dbus-run-session -- go test -count=1 -run TestDBus ./tools/notification/... ./platform/freedesktop/... "$@"
