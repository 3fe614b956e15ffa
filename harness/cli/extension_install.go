package cli

import (
	"context"
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"

	"github.com/spf13/cobra"
	"golang.org/x/term"

	"github.com/openworker/desktop/harness/extension"
	"github.com/openworker/desktop/harness/extension/archive"
	"github.com/openworker/desktop/harness/extension/manifest"
	"github.com/openworker/desktop/harness/mcp/launch"
	"github.com/openworker/desktop/harness/sandbox"
	"github.com/openworker/desktop/harness/tool"
)

// installCommand is `openworker extension install FILE`
// (docs/cli.md#extension, docs/extensions.md#installing): it shows what
// the file holds, asks for the user_config values not given with --set,
// asks to confirm (or takes --yes), and installs.
func (c *config) installCommand(reg *tool.Registry, dir *string) *cobra.Command {
	var sets []string
	var yes bool
	var namespace, sandboxFlag string
	cmd := &cobra.Command{
		Use:   "install FILE.mcpb [--set KEY=VALUE]... [--namespace NS] [--sandbox default|off] [--yes]",
		Short: "install an MCP extension (.mcpb or .dxt) after showing what it holds",
		Long: `Show what the extension FILE holds (name, version, author, tools,
prompts, the runtime it needs, its signature), ask for its settings
(user_config) that --set does not give, and install it after you confirm.
Sensitive settings go to the OS keychain. Installing grants no approval:
every call of its tools asks as usual. Without a terminal, give every
required setting with --set and confirm with --yes.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return c.install(cmd.Context(), reg, c.extensionStore(*dir), args[0], sets, yes, namespace, sandboxFlag)
		},
	}
	cmd.Flags().StringArrayVar(&sets, "set", nil, "a setting KEY=VALUE (repeat; a multiple setting takes KEY=V1 --set KEY=V2)")
	cmd.Flags().BoolVar(&yes, "yes", false, "install without asking to confirm")
	cmd.Flags().StringVar(&namespace, "namespace", "", "the namespace of its tools at the first install (default: derived from its name)")
	cmd.Flags().StringVar(&sandboxFlag, "sandbox", "", "run its server in the default sandbox (default) or with your full access (off); an upgrade keeps the installed one's (docs/sandbox.md)")
	return cmd
}

func (c *config) install(ctx context.Context, reg *tool.Registry, s *extension.Store, file string, sets []string, yes bool, namespace, sandboxFlag string) error {
	host, err := manifest.ThisHost()
	if err != nil {
		return err
	}
	place, err := installSandbox(sandboxFlag)
	if err != nil {
		return err
	}
	search := launch.Search{Path: launch.Default(ctx).Path}
	in, err := s.Inspect(file, extension.InspectOptions{Namespace: namespace, Runtimes: extension.FindRuntimes(ctx, search), Taken: func(ns string) bool {
		_, mcp := reg.Server(ns)
		return mcp || reg.IsNative(ns)
	}})
	if err != nil {
		return badInput(namespaceFlag(err))
	}
	c.describe(in)
	if len(in.Blocking) > 0 {
		return badInput(fmt.Errorf("%s cannot be installed here: %s", file, strings.Join(in.Blocking, "; ")))
	}
	values, err := c.installValues(in, sets)
	if err != nil {
		return err
	}
	if !yes {
		if err := c.confirmInstall(in); err != nil {
			return err
		}
	}
	rec, err := s.Install(in, values, host)
	if err != nil {
		return badInput(err)
	}
	if sandboxFlag != "" {
		if rec, err = s.SetSandbox(rec.Name, place); err != nil {
			return badInput(err)
		}
	}
	fmt.Fprintf(c.stdout, "installed %s %s as namespace %s in %s; it %s\nselect its tools in a coworker's tools.json as %s.TOOL; every call asks as usual\n",
		rec.Name, rec.Version, rec.Namespace, rec.Dir, extensionAccess(rec), rec.Namespace)
	return nil
}

// installSandbox is the placement --sandbox asks for (nil when it is not
// given), which this platform must be able to enforce.
func installSandbox(flag string) (*tool.Sandbox, error) {
	if flag == "" {
		return nil, nil
	}
	place, err := sandboxChoice(flag)
	if err != nil {
		return nil, usageErr("--sandbox: %v", err)
	}
	if err := sandbox.Supported(place); err != nil {
		return nil, &exitError{ExitFailure, fmt.Errorf("--sandbox %s cannot be enforced here: %w", flag, err)}
	}
	return place, nil
}

// installValues are the user_config values of in: those --set gives,
// then, on a terminal, the others asked for one by one (those the
// installed version has are kept without asking). Without a terminal a
// required setting with no default must be given with --set.
func (c *config) installValues(in *extension.Inspection, sets []string) (map[string]any, error) {
	values, err := setValues(in.Manifest, sets)
	if err != nil {
		return nil, usageErr("%v", err)
	}
	for _, f := range in.Manifest.UserConfig {
		if _, given := values[f.Key]; given || keptFromInstalled(in, f) {
			continue
		}
		if !c.terminal() {
			if f.Required && f.Default == nil {
				want, example := settingWants(f)
				return nil, usageErr("the setting %s is required; give it with --set %s=VALUE, where VALUE is %s (for example --set %s=%s; there is no terminal to ask on)", f.Key, f.Key, want, f.Key, example)
			}
			continue
		}
		v, err := c.askField(f)
		if err != nil {
			return nil, err
		}
		if v != "" {
			if values[f.Key], err = settingValue(f, v); err != nil {
				return nil, usageErr("%v", err)
			}
		}
	}
	return values, nil
}

// keptFromInstalled reports whether the installed version of in has a
// value of f that this version keeps.
func keptFromInstalled(in *extension.Inspection, f manifest.Field) bool {
	return in.Installed != nil && (hasValue(in.Installed.Values, f.Key) && f.Accepts(in.Installed.Values[f.Key]) || slices.Contains(in.Installed.Sensitive, f.Key))
}

// confirmInstall asks on the terminal to confirm installing in (saying
// when it is a downgrade); no terminal, or no yes, is an error.
func (c *config) confirmInstall(in *extension.Inspection) error {
	if !c.terminal() {
		return usageErr("confirm the install with --yes (there is no terminal to ask on)")
	}
	if in.Older {
		fmt.Fprintf(c.stderr, "Install %s %s over the newer %s (a downgrade) as %s? [y/N] ", in.Manifest.Name, in.Manifest.Version, in.Installed.Version, in.Namespace)
	} else {
		fmt.Fprintf(c.stderr, "Install %s %s as %s? [y/N] ", in.Manifest.Name, in.Manifest.Version, in.Namespace)
	}
	line, _ := readLine(c.stdin)
	if a := strings.ToLower(strings.TrimSpace(line)); a != "y" && a != "yes" {
		return &exitError{ExitFailure, errors.New("not installed: you did not confirm")}
	}
	return nil
}

// describe prints what the install dialog shows (docs/extensions.md#installing).
func (c *config) describe(in *extension.Inspection) {
	m := in.Manifest
	w := c.stdout
	fmt.Fprintf(w, "%s %s", oneLine(m.Title(), 100), oneLine(m.Version, 40))
	if m.Author.Name != "" {
		fmt.Fprintf(w, " by %s", oneLine(m.Author.Name, 100))
	}
	fmt.Fprintln(w)
	if m.Description != "" {
		fmt.Fprintf(w, "  %s\n", oneLine(m.Description, 300))
	}
	fmt.Fprintf(w, "  namespace: %s%s\n", in.Namespace, replacesText(in))
	fmt.Fprintf(w, "  signature: %s\n", signatureText(in.Signature))
	fmt.Fprintf(w, "  server: %s\n", serverText(in))
	fmt.Fprintf(w, "  runs: %s\n", in.RunsText())
	if env := in.EnvText(); env != "" {
		fmt.Fprintf(w, "  environment: %s\n", env)
	}
	if ps := m.Compatibility.Platforms; len(ps) > 0 {
		fmt.Fprintf(w, "  platforms: %s\n", strings.Join(ps, ", "))
	}
	for _, t := range m.Tools {
		fmt.Fprintf(w, "  tool %s.%s: %s\n", in.Namespace, oneLine(t.Name, 80), oneLine(t.Description, 200))
	}
	if m.ToolsGenerated {
		fmt.Fprintln(w, "  (the server may list more tools when it runs)")
	}
	for _, p := range m.Prompts {
		fmt.Fprintf(w, "  prompt %s: %s\n", oneLine(p.Name, 80), oneLine(p.Description, 200))
	}
	for _, u := range m.PrivacyPolicies {
		fmt.Fprintf(w, "  privacy policy: %s\n", oneLine(u, 300))
	}
	fmt.Fprintf(w, "  %d files, %s\n", in.Files, sizeText(in.Bytes))
	for _, b := range in.Blocking {
		fmt.Fprintf(w, "  cannot install: %s\n", oneLine(b, 500))
	}
	for _, x := range in.Warnings {
		fmt.Fprintf(w, "  warning: %s\n", oneLine(x, 500))
	}
}

// replacesText says what installing in does to the installed version,
// if any: " (upgrades 1.0.0; its settings are kept)".
func replacesText(in *extension.Inspection) string {
	switch {
	case in.Older:
		return fmt.Sprintf(" (replaces the newer %s: a downgrade; its settings are kept)", in.Installed.Version)
	case in.Installed != nil && in.Installed.Version == in.Manifest.Version:
		return fmt.Sprintf(" (reinstalls %s; its settings are kept)", in.Installed.Version)
	case in.Installed != nil:
		return fmt.Sprintf(" (upgrades %s; its settings are kept)", in.Installed.Version)
	}
	return ""
}

// signatureText is the signature's status with its signer or problem.
func signatureText(sig archive.Signature) string {
	text := string(sig.Status)
	switch sig.Status {
	case archive.Signed, archive.SelfSigned:
		text += " by " + oneLine(sig.Subject, 200)
	case archive.Invalid:
		text += ": " + oneLine(sig.Problem, 200)
	}
	return text
}

// serverText is the server's type and the runtime it needs, if any, as
// found on this computer.
func serverText(in *extension.Inspection) string {
	server := in.Manifest.Server.Type
	rt := in.Runtime
	if rt.Name == "" {
		return server
	}
	found, ok := in.Runtimes[rt.Name]
	switch {
	case ok && in.RuntimeFits():
		return server + fmt.Sprintf(", needs %s %s (found %s)", rt.Title, rt.Range, found)
	case ok:
		return server + fmt.Sprintf(", needs %s %s (found %s, which does not match: %s)", rt.Title, rt.Range, found, rt.URL)
	}
	return server + fmt.Sprintf(", needs %s %s (not found: %s)", rt.Title, rt.Range, rt.URL)
}

// askField asks one user_config value on the terminal (a sensitive one
// without echo); "" takes the default.
func (c *config) askField(f manifest.Field) (string, error) {
	label := f.Title
	if label == "" {
		label = f.Key
	}
	hint := f.Type
	if f.Multiple {
		hint += ", several separated by commas"
	}
	if f.Default != nil {
		hint += fmt.Sprintf(", default %v", f.Default)
	} else if f.Required {
		hint += ", required"
	}
	fmt.Fprintf(c.stderr, "%s (%s): ", oneLine(label, 100), hint)
	if file, ok := c.stdin.(*os.File); ok && f.Sensitive && term.IsTerminal(int(file.Fd())) {
		b, err := term.ReadPassword(int(file.Fd()))
		fmt.Fprintln(c.stderr)
		if err != nil {
			return "", fmt.Errorf("reading %s: %v", f.Key, err)
		}
		return strings.TrimSpace(string(b)), nil
	}
	line, err := readLine(c.stdin)
	if err != nil && line == "" {
		return "", fmt.Errorf("no value was given for %s (%v)", f.Key, err)
	}
	return strings.TrimSpace(line), nil
}

func sizeText(n int64) string {
	switch {
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KiB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d bytes", n)
}

func hasValue(m map[string]any, k string) bool { _, ok := m[k]; return ok }
