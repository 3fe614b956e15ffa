// Command mac_dialog shows one native macOS dialog through platform/darwin,
// after the local user consents on the terminal.
//
//	go run ./tools/notification/examples/mac_dialog [--yes] [--message TEXT]
//
// It bypasses the harness: no coworker, consent engine or journal is
// involved, so it is no evidence of harness approvals (docs/tools.md). Exit
// codes: 0 answered, 1 dialog failure or refusal, 2 bad usage or not macOS.
package main

import (
	"bufio"
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime"
	"strings"
	"time"

	"github.com/openworker/desktop/platform"
	"github.com/openworker/desktop/platform/darwin"
	"golang.org/x/term"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	os.Exit(run(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr, runtime.GOOS, env{
		isTerminal: stdinIsTerminal,
		ask:        darwin.New(nil).Ask,
	}))
}

// env holds what run needs from the machine, so tests can fake it.
type env struct {
	isTerminal func(stdin io.Reader) bool
	ask        func(ctx context.Context, req platform.AskRequest) (platform.AskResult, error)
}

func stdinIsTerminal(stdin io.Reader) bool {
	f, ok := stdin.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

// Exit codes.
const (
	exitOK      = 0
	exitFailure = 1
	exitUsage   = 2
)

func run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer, goos string, e env) int {
	fs := flag.NewFlagSet("mac_dialog", flag.ContinueOnError)
	fs.SetOutput(stderr)
	yes := fs.Bool("yes", false, "consent in advance instead of typing yes on the terminal (for scripts)")
	message := fs.String("message", "OpenWorker demo: can you see this native macOS dialog?", "the dialog message")
	timeout := fs.Duration("timeout", time.Minute, "how long the dialog waits before giving up (1s to 1h)")
	if err := fs.Parse(args); err != nil {
		return exitUsage
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "mac_dialog: unexpected argument %q\n", fs.Arg(0))
		return exitUsage
	}
	if goos != "darwin" {
		fmt.Fprintf(stderr, "mac_dialog: this demo is macOS-only (it uses osascript); this is %s\n", goos)
		return exitUsage
	}
	req := platform.AskRequest{Title: "OpenWorker demo", Message: *message, Buttons: []string{"Looks good", "Something is off"}, Cancel: "Something is off", Timeout: *timeout}
	if err := req.Validate(); err != nil {
		fmt.Fprintf(stderr, "mac_dialog: %v\n", err)
		return exitUsage
	}
	fmt.Fprintln(stdout, "This demo shows one native macOS dialog directly through platform/darwin (osascript).")
	fmt.Fprintln(stdout, "It bypasses the OpenWorker harness and is no evidence of harness approvals.")
	if !*yes {
		if !e.isTerminal(stdin) {
			fmt.Fprintln(stderr, "mac_dialog: refusing: stdin is not a terminal, so no one can consent; run it in a terminal or pass --yes")
			return exitFailure
		}
		fmt.Fprint(stdout, "Type yes to show the dialog: ")
		line, _ := bufio.NewReader(io.LimitReader(stdin, 1024)).ReadString('\n')
		if strings.TrimSpace(line) != "yes" {
			fmt.Fprintln(stderr, "mac_dialog: refusing: you did not type yes; nothing was shown")
			return exitFailure
		}
	}
	res, err := e.ask(ctx, req)
	if err != nil {
		fmt.Fprintf(stderr, "mac_dialog: dialog failed: %v\n", err)
		return exitFailure
	}
	if res.TimedOut {
		fmt.Fprintln(stdout, "No answer before the timeout.")
		return exitOK
	}
	fmt.Fprintf(stdout, "You pressed: %s\n", res.Button)
	return exitOK
}
