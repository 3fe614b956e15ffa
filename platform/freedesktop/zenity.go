package freedesktop

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/openworker/desktop/platform/internal/core"
)

// ZenityDialog is the zenity invocation for one AskRequest and how to read
// its answer: exit 0 is OK, exit 1 with a label on stdout is that extra
// button, exit 1 without one is Cancel (also Escape and closing), exit 5 is
// the timeout.
type ZenityDialog struct {
	Argv   []string `json:"argv"` // argv[0] is "zenity"
	OK     string   `json:"ok"`
	Cancel string   `json:"cancel,omitempty"`
	Extra  []string `json:"extra,omitempty"`
}

// DefaultTitle is the dialog title when the request has none.
const DefaultTitle = "OpenWorker"

// zenityEscape neutralises the backslash escapes zenity applies to --text
// (g_strcompress), so a "\n" in the text stays two characters.
func zenityEscape(s string) string { return strings.ReplaceAll(s, `\`, `\\`) }

// ZenityCommand returns the zenity argv for req, after validating it. One
// button is an --info/--warning/--error box; two or three are a --question
// whose OK label is the default button, whose Cancel label is the cancel
// button (else the last other button), and whose remaining button is an
// --extra-button. Every value is one "--opt=value" argv item.
func ZenityCommand(req core.AskRequest) (ZenityDialog, error) {
	r, err := req.Normalize()
	if err != nil {
		return ZenityDialog{}, err
	}
	title := r.Title
	if title == "" {
		title = DefaultTitle
	}
	d := ZenityDialog{OK: r.Default}
	kind := "--question"
	if len(r.Buttons) == 1 {
		kind = map[core.Icon]string{core.IconInfo: "--info", core.IconWarning: "--warning", core.IconError: "--error"}[r.Icon]
	}
	d.Argv = []string{"zenity", kind, "--no-markup", "--title=" + title, "--text=" + zenityEscape(r.Message),
		"--ok-label=" + r.Default, "--timeout=" + strconv.Itoa(r.TimeoutSeconds())}
	if len(r.Buttons) > 1 {
		others := slices.DeleteFunc(slices.Clone(r.Buttons), func(b string) bool { return b == r.Default })
		d.Cancel = r.Cancel
		if d.Cancel == "" || d.Cancel == r.Default {
			d.Cancel = others[len(others)-1]
		}
		d.Argv = append(d.Argv, "--cancel-label="+d.Cancel)
		for _, b := range others {
			if b != d.Cancel {
				d.Extra = append(d.Extra, b)
				d.Argv = append(d.Argv, "--extra-button="+b)
			}
		}
	}
	return d, nil
}

// Result maps zenity's exit code and standard output to the answer.
func (d ZenityDialog) Result(exitCode int, stdout string) (core.AskResult, error) {
	out := strings.TrimSuffix(stdout, "\n")
	switch exitCode {
	case 0:
		return core.AskResult{Button: d.OK}, nil
	case 5:
		return core.AskResult{TimedOut: true}, nil
	case 1:
		if slices.Contains(d.Extra, out) {
			return core.AskResult{Button: out}, nil
		}
		if out == "" && d.Cancel != "" {
			return core.AskResult{Button: d.Cancel}, nil
		}
		if out == "" { // a one-button box closed with Escape
			return core.AskResult{Button: d.OK}, nil
		}
		return core.AskResult{}, fmt.Errorf("zenity printed the unknown button %q", out)
	}
	return core.AskResult{}, fmt.Errorf("zenity exited with status %d", exitCode)
}

// ask runs zenity (found at program) and waits; cancelling ctx kills it,
// which closes the dialog.
func ask(ctx context.Context, program string, req core.AskRequest) (core.AskResult, error) {
	d, err := ZenityCommand(req)
	if err != nil {
		return core.AskResult{}, err
	}
	cmd := exec.CommandContext(ctx, program, d.Argv[1:]...)
	cmd.WaitDelay = 2 * time.Second
	release := dieWithParent(cmd)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err = cmd.Run()
	release()
	if ctx.Err() != nil {
		return core.AskResult{}, ctx.Err()
	}
	code := 0
	var exit *exec.ExitError
	switch {
	case errors.As(err, &exit):
		code = exit.ExitCode()
	case err != nil:
		return core.AskResult{}, fmt.Errorf("zenity: %w", err)
	}
	res, err := d.Result(code, stdout.String())
	if err != nil {
		msg := strings.TrimSpace(stderr.String())
		if len(msg) > 512 {
			msg = strings.ToValidUTF8(msg[:512], "") + "…"
		}
		return core.AskResult{}, fmt.Errorf("%w: %s", err, msg)
	}
	return res, nil
}
