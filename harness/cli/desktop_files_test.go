package cli_test

import (
	"bytes"
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/openworker/desktop/harness/cli"
	"github.com/openworker/desktop/harness/tool"
)

// A bare `openworker FILE` goes to the desktop app when the app takes FILE
// (cli.WithDesktopFiles); any other word is still an unknown command.
func TestDesktopFilesReachTheApp(t *testing.T) {
	var got [][]string
	desktop := func(_ context.Context, _ *tool.Registry, args []string) error {
		got = append(got, args)
		return nil
	}
	opens := func(arg string) bool { return strings.HasSuffix(arg, ".mcpb") }
	run := func(args ...string) (int, string) {
		var out bytes.Buffer
		code := cli.Run(context.Background(), tool.NewRegistry(), args,
			cli.WithIO(strings.NewReader(""), &out, &out, func(string) string { return "" }, func() bool { return false }),
			cli.WithDesktop(desktop, "  --x  y\n"), cli.WithDesktopFiles(opens))
		return code, out.String()
	}
	if code, out := run(`C:\Users\me\Downloads\weather.mcpb`); code != 0 || len(got) != 1 || !slices.Equal(got[0], []string{`C:\Users\me\Downloads\weather.mcpb`}) {
		t.Fatalf("openworker FILE: exit %d, %s, desktop got %q", code, out, got)
	}
	if code, out := run("chekc"); code != 2 || !strings.Contains(out, `unknown command "chekc"`) || len(got) != 1 {
		t.Errorf("openworker chekc: exit %d, %s; want 2 and the desktop not started", code, out)
	}
	// A path that is no file to open says so, not "unknown command".
	if code, out := run("./missing.txt"); code != 2 || !strings.Contains(out, "no file ./missing.txt to open: it does not exist") || len(got) != 1 {
		t.Errorf("openworker ./missing.txt: exit %d, %s; want 2 and no file to open", code, out)
	}
	// A subcommand still wins over a file of the same name.
	if code, out := run("version"); code != 0 || !strings.Contains(out, "openworker") || len(got) != 1 {
		t.Errorf("openworker version: exit %d, %s", code, out)
	}
}
