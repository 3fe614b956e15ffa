package autostart

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// desktopPath is the entry's file under $XDG_CONFIG_HOME/autostart
// (default ~/.config/autostart), XDG Autostart Specification 0.5.
func desktopPath(e Entry) (string, error) {
	dir := os.Getenv("XDG_CONFIG_HOME")
	if !filepath.IsAbs(dir) { // the Base Directory spec ignores a relative one
		home, err := os.UserHomeDir()
		if err != nil {
			return "", fmt.Errorf("autostart: %w", err)
		}
		dir = filepath.Join(home, ".config")
	}
	return filepath.Join(dir, "autostart", e.Name+".desktop"), nil
}

// desktopFile is the entry as a desktop entry (Desktop Entry
// Specification 1.5): Exec quoted per its "The Exec key".
func desktopFile(e Entry) []byte {
	args := make([]string, len(e.Exec))
	for i, a := range e.Exec {
		args[i] = desktopArg(a)
	}
	var b strings.Builder
	b.WriteString("[Desktop Entry]\n")
	b.WriteString("Type=Application\n")
	fmt.Fprintf(&b, "Name=%s\n", desktopString(e.DisplayName))
	fmt.Fprintf(&b, "Exec=%s\n", desktopString(strings.Join(args, " ")))
	b.WriteString("Terminal=false\n")
	b.WriteString("X-GNOME-Autostart-enabled=true\n")
	return []byte(b.String())
}

// desktopArg quotes one Exec argument: in double quotes when it holds a
// reserved character, with '"', '`', '$' and '\' escaped by a backslash;
// '%' is doubled (a field code otherwise).
func desktopArg(a string) string {
	a = strings.ReplaceAll(a, "%", "%%")
	if a != "" && !strings.ContainsAny(a, " \t\n\"'\\><~|&;$*?#()`") {
		return a
	}
	r := strings.NewReplacer(`\`, `\\`, `"`, `\"`, "`", "\\`", `$`, `\$`)
	return `"` + r.Replace(a) + `"`
}

// desktopString escapes a string value: a backslash, newline, tab and
// carriage return as \\, \n, \t and \r.
func desktopString(s string) string {
	return strings.NewReplacer(`\`, `\\`, "\n", `\n`, "\t", `\t`, "\r", `\r`).Replace(s)
}
