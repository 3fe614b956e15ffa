package sandbox

// systemPaths are the folders ${system} stands for on Linux: libraries,
// programs and their configuration, and the harmless device files
// (docs/sandbox.md#variables). /proc, /sys, /run and /home are not among
// them.
func systemPaths() []string {
	return []string{"/usr", "/lib", "/lib64", "/lib32", "/libx32", "/bin", "/sbin", "/etc",
		"/dev/null", "/dev/zero", "/dev/full", "/dev/random", "/dev/urandom"}
}
