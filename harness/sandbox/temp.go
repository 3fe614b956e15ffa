package sandbox

import (
	"os/exec"
	"strings"
)

// setTemp points TMPDIR, TMP and TEMP of cmd at dir ("" leaves them).
func setTemp(cmd *exec.Cmd, dir string) {
	if dir == "" {
		return
	}
	env := cmd.Env
	if env == nil {
		env = cmd.Environ()
	}
	out := env[:0:0]
	for _, kv := range env {
		k, _, _ := strings.Cut(kv, "=")
		switch strings.ToUpper(k) {
		case "TMPDIR", "TMP", "TEMP":
			continue
		}
		out = append(out, kv)
	}
	cmd.Env = append(out, "TMPDIR="+dir, "TMP="+dir, "TEMP="+dir)
}
