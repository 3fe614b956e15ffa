package sandbox

// systemPaths are the folders ${system} stands for on macOS: the system,
// its libraries and configuration, Homebrew's and /usr/local's programs
// (docs/sandbox.md#variables).
func systemPaths() []string {
	return []string{"/usr", "/bin", "/sbin", "/System", "/Library/Apple", "/private/etc", "/private/var/db/timezone",
		"/opt/homebrew", "/dev/null", "/dev/zero", "/dev/random", "/dev/urandom"}
}
