package sandbox

import "os"

// systemPaths are the folders ${system} stands for on Windows: Windows
// and the programs folders (docs/sandbox.md#variables).
func systemPaths() []string {
	var out []string
	for _, k := range []string{"SystemRoot", "ProgramFiles", "ProgramFiles(x86)"} {
		if v := os.Getenv(k); v != "" {
			out = append(out, v)
		}
	}
	return out
}
