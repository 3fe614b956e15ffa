package servers

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/openworker/desktop/harness/internal/jsonfile"
	"github.com/openworker/desktop/harness/tool"
)

// minCallTimeout is the smallest "timeout" a configuration file may set:
// a shorter bound would fail every call (docs/servers.md#keys).
const minCallTimeout = time.Second

// timeout reads "timeout" in the format's unit: a value under
// minCallTimeout, zero or negative is ignored with a notice, one over
// tool.DefaultCallTimeout (however large) is capped with a notice. A
// value that is not a number is an error whose fix says to write one.
func (rd *reader) timeout(e *ConfigEntry, t *jsonfile.Field, name string) (time.Duration, error) {
	unit := rd.spec.timeoutUnit
	if rd.clineKeys != "" && t.Value.Kind == jsonfile.Number {
		unit = time.Second
		rd.notice(e, t.Line, "\"timeout\" %s of server %q is read in seconds, as Cline counts it: this file is not named cline_mcp_settings.json, but it has Cline's %q; if it is in milliseconds, name the format of the file (mcpServers)", t.Value.Num, name, rd.clineKeys)
	}
	if unit == 0 {
		rd.notice(e, t.Line, "\"timeout\" of server %q is ignored: the %s format has no timeout, so its unit is unknown (name the format of the file)", name, rd.spec.label)
		return 0, nil
	}
	unitName := map[time.Duration]string{time.Second: "seconds", time.Millisecond: "milliseconds"}[unit]
	example := map[time.Duration]string{time.Second: "60", time.Millisecond: "60000"}[unit]
	if t.Value.Kind != jsonfile.Number {
		fix := fmt.Sprintf(`write a number of %s without quotes, like "timeout": %s, or remove the key`, unitName, example)
		if t.Value.Kind == jsonfile.String {
			if _, err := strconv.ParseFloat(strings.TrimSpace(t.Value.Str), 64); err == nil {
				fix = fmt.Sprintf(`write the number without quotes: "timeout": %s (%s)`, strings.TrimSpace(t.Value.Str), unitName)
			}
		}
		return 0, t.Value.Err(fmt.Sprintf("\"timeout\" of server %q must be a number, not %s", name, t.Value.Kind), fix)
	}
	n, err := strconv.ParseFloat(string(t.Value.Num), 64)
	over := err != nil || n*float64(unit) > float64(tool.DefaultCallTimeout) // ParseFloat fails only out of range
	if !over && n <= 0 {
		rd.notice(e, t.Line, "\"timeout\" %s of server %q is ignored: it must be a positive number of %s", t.Value.Num, name, unitName)
		return 0, nil
	}
	if over {
		rd.notice(e, t.Line, "\"timeout\" %s %s of server %q is over OpenWorker's bound of %s per call (docs/limits.md): its calls are bounded by %s", t.Value.Num, unitName, name, tool.DefaultCallTimeout, tool.DefaultCallTimeout)
		return tool.DefaultCallTimeout, nil
	}
	d := time.Duration(n * float64(unit))
	if d < minCallTimeout {
		rd.notice(e, t.Line, "\"timeout\" %s of server %q is ignored: the %s format counts it in %s, and OpenWorker ignores values under %s (%d ms), as Claude Code does: every call would time out", t.Value.Num, name, rd.spec.label, unitName, minCallTimeout, minCallTimeout.Milliseconds())
		return 0, nil
	}
	return d, nil
}

// MaxStartTimeout is the largest "startup_timeout" servers.json may set
// (docs/mcp.md#start-bound): a longer one is capped with a notice.
const MaxStartTimeout = 10 * time.Minute

// startupTimeout reads servers.json's "startup_timeout", in seconds: the
// bound of the server's start and initialize handshake. Zero or negative
// is ignored with a notice; over MaxStartTimeout is capped with a notice;
// not a number is an error.
func (rd *reader) startupTimeout(e *ConfigEntry, t *jsonfile.Field, name string) (time.Duration, error) {
	if t.Value.Kind != jsonfile.Number {
		fix := `write a number of seconds without quotes, like "startup_timeout": 120, or remove the key`
		if t.Value.Kind == jsonfile.String {
			if _, err := strconv.ParseFloat(strings.TrimSpace(t.Value.Str), 64); err == nil {
				fix = fmt.Sprintf(`write the number without quotes: "startup_timeout": %s (seconds)`, strings.TrimSpace(t.Value.Str))
			}
		}
		return 0, t.Value.Err(fmt.Sprintf("\"startup_timeout\" of server %q must be a number of seconds, not %s", name, t.Value.Kind), fix)
	}
	n, err := strconv.ParseFloat(string(t.Value.Num), 64)
	if err == nil && n <= 0 {
		rd.notice(e, t.Line, "\"startup_timeout\" %s of server %q is ignored: it must be a positive number of seconds", t.Value.Num, name)
		return 0, nil
	}
	if err != nil || n*float64(time.Second) > float64(MaxStartTimeout) {
		rd.notice(e, t.Line, "\"startup_timeout\" %s of server %q is over OpenWorker's bound of %s per start: its start is bounded by %s", t.Value.Num, name, MaxStartTimeout, MaxStartTimeout)
		return MaxStartTimeout, nil
	}
	return time.Duration(n * float64(time.Second)), nil
}

// clineKeysIn names the first key only Cline writes ("autoApprove",
// "transportType") that an entry of list has, or "".
func clineKeysIn(list *jsonfile.Node) string {
	if list == nil || list.Kind != jsonfile.Object {
		return ""
	}
	for _, f := range list.Fields {
		for _, k := range []string{"autoApprove", "transportType"} {
			if f.Value.Get(k) != nil {
				return k
			}
		}
	}
	return ""
}
