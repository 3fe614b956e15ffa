package app

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
)

// ErrUsage is wrapped by the error Run returns for a bad command line (an
// unknown flag, a flag without its value, a stray argument); the CLI exits
// with status 2 for it (docs/cli.md#exit-codes). The message says what was
// wrong and lists the flags, without a program-name prefix.
var ErrUsage = errors.New("usage")

// appFlag is one desktop-app flag: its name, the kind of value it takes and
// a one-line help.
type appFlag struct {
	name, value, help string
	dest              func(*config) *string
}

// appFlags are the app's flags, in the order FlagUsage prints them.
var appFlags = []appFlag{
	{"config-dir", "DIR", "settings, journal and logs (default <user config dir>/OpenWorker)", func(c *config) *string { return &c.ConfigDir }},
	{"db", "FILE", "the journal file (default <config dir>/journal.db)", func(c *config) *string { return &c.DBPath }},
	{"coworkers", "DIR", "coworker bundles folder for this run (saved only if you save Settings)", func(c *config) *string { return &c.Coworkers }},
	{"coworker", "ID", "open a chat with this coworker at start", func(c *config) *string { return &c.OpenCoworker }},
	{"provider", "NAME", "model provider for this run: openai | anthropic", func(c *config) *string { return &c.Provider }},
	{"base-url", "URL", "model endpoint for this run", func(c *config) *string { return &c.BaseURL }},
	{"model", "NAME", "model for this run", func(c *config) *string { return &c.Model }},
	{"approve", "MODE", "approval mode for this run: ask | bypass", func(c *config) *string { return &c.Approve }},
	{"servers", "FILE", "servers.json naming MCP providers, for this run", func(c *config) *string { return &c.Servers }},
	{"update-feed", "URL", "the update feed to check (default the releases'; verified against the built-in key all the same)", func(c *config) *string { return &c.UpdateFeed }},
	{"prompt-timeout", "DUR", "how long a consent prompt waits, a Go duration; unanswered, the call is denied (default 5m)", func(c *config) *string { return &c.PromptTimeout }},
}

// FlagUsage returns the desktop app's flags, one per line, each as
// "  --name VALUE  help" with the help column aligned, ending in a newline.
// Each flag may also be set in the environment as OPENWORKER_<FLAG>
// (OPENWORKER_CONFIG_DIR, ...); the command line wins.
func FlagUsage() string {
	width := 0
	for _, f := range appFlags {
		width = max(width, len(f.name)+len(f.value)+3)
	}
	var b strings.Builder
	for _, f := range appFlags {
		fmt.Fprintf(&b, "  %-*s  %s\n", width, "--"+f.name+" "+f.value, f.help)
	}
	fmt.Fprintf(&b, "  %-*s  %s\n", width, "--background", backgroundHelp)
	return b.String()
}

// flagList is "--config-dir DIR, --db FILE, ..." for error messages.
func flagList() string {
	parts := make([]string, len(appFlags))
	for i, f := range appFlags {
		parts[i] = "--" + f.name + " " + f.value
	}
	return strings.Join(append(parts, "--background"), ", ")
}

// backgroundHelp is the help of --background, the one flag without a value.
const backgroundHelp = "start with the window hidden (the login entry of \"start at login\" passes it); launching the app again shows it"

// usageError is a command-line error; it wraps ErrUsage.
type usageError struct{ msg string }

func (e *usageError) Error() string { return e.msg }
func (e *usageError) Unwrap() error { return ErrUsage }

func newUsageError(what string) error {
	return &usageError{what + "; the desktop app takes: " + flagList() + " (openworker --help)"}
}

// parseArgs reads the app's flags (see FlagUsage); each flag may also be
// given in the environment as OPENWORKER_<FLAG> (OPENWORKER_CONFIG_DIR,
// OPENWORKER_COWORKER, ...), which is how scripts pass them through the
// CLI's bare command. Paths are made absolute. What follows the flags are
// files to open (fileArgs: extensions, docs/app.md#opening-an-extension).
// Errors wrap ErrUsage.
func parseArgs(args []string) (config, error) {
	var c config
	fl, _ := newFlagSet(&c)
	var fromEnv []string
	fl.VisitAll(func(f *flag.Flag) {
		env := "OPENWORKER_" + strings.ToUpper(strings.ReplaceAll(f.Name, "-", "_"))
		if v := os.Getenv(env); v != "" {
			fromEnv = append(fromEnv, "--"+f.Name+"="+v)
		}
	})
	if err := fl.Parse(append(fromEnv, args...)); err != nil {
		return c, flagError(err)
	}
	files, err := fileArgs(fl.Args(), "")
	if err != nil {
		return c, err
	}
	c.Open = files
	for _, p := range []*string{&c.ConfigDir, &c.DBPath, &c.Coworkers, &c.Servers} {
		if *p != "" {
			abs, err := filepath.Abs(*p)
			if err != nil {
				return c, err
			}
			*p = abs
		}
	}
	return c, nil
}

// newFlagSet is the app's flag set, writing into c; it prints nothing.
func newFlagSet(c *config) (*flag.FlagSet, *config) {
	fl := flag.NewFlagSet("openworker", flag.ContinueOnError)
	fl.SetOutput(io.Discard)
	for _, f := range appFlags {
		fl.StringVar(f.dest(c), f.name, "", f.help)
	}
	fl.BoolVar(&c.Background, "background", false, backgroundHelp)
	return fl, c
}

// flagError rewrites the flag package's messages ("flag provided but not
// defined: -x") as usage errors.
func flagError(err error) error {
	msg := err.Error()
	switch {
	case errors.Is(err, flag.ErrHelp):
		return &usageError{"the desktop app takes: " + flagList() + " (openworker --help)"}
	case strings.HasPrefix(msg, "flag provided but not defined: "):
		return newUsageError("unknown flag " + dashes(strings.TrimPrefix(msg, "flag provided but not defined: ")))
	case strings.HasPrefix(msg, "flag needs an argument: "):
		return newUsageError("flag " + dashes(strings.TrimPrefix(msg, "flag needs an argument: ")) + " needs a value")
	default:
		return newUsageError(msg)
	}
}

// dashes writes a flag the flag package names as "-x" the way FlagUsage
// does, "--x".
func dashes(name string) string {
	if strings.HasPrefix(name, "-") && !strings.HasPrefix(name, "--") {
		return "-" + name
	}
	return name
}
