package app

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/openworker/desktop/harness/extension"
	"github.com/openworker/desktop/harness/extension/archive"
	"github.com/openworker/desktop/harness/extension/manifest"
	"github.com/openworker/desktop/harness/mcp/launch"
)

// Extensions is Settings → Extensions and the install dialog: preview,
// install, list and remove MCP extensions, and their sandbox
// (extsandbox.go, docs/extensions.md). The installed ones are the
// extension store's, in the config folder; a change applies the
// providers again (serversFile).
type Extensions struct {
	*env
	settings  *settingsStore
	servers   *serversFile
	coworkers *Coworkers // listed anew after a change
}

// The extension installer (docs/app.md#opening-an-extension,
// docs/extensions.md#installing): a .mcpb opened from outside
// (extopen.go), dropped on the window, or chosen in Settings →
// Extensions (ChooseExtensionFile) is shown by PreviewExtension; the
// dialog's form values go to InstallExtension with the preview's Digest,
// which installs only the file previewed. The providers are applied again
// at once: new chats get the extension, open chats keep theirs. Like the
// Import dialog (import.go), nothing is written before the person confirms.

// ExtensionPreview is what the install dialog shows of an extension file
// (extension.Store.Inspect). Digest is the file's sha256 (hex) for
// InstallExtension.
type ExtensionPreview struct {
	Path             string           `json:"path"` // absolute
	DisplayName      string           `json:"display_name"`
	Name             string           `json:"name"`
	Version          string           `json:"version"`
	Author           ExtensionAuthor  `json:"author"`
	Description      string           `json:"description"`
	Homepage         string           `json:"homepage"`
	Tools            []ExtensionItem  `json:"tools"`
	ToolsGenerated   bool             `json:"tools_generated"` // the server may list more tools when it runs
	Prompts          []ExtensionItem  `json:"prompts"`
	PromptsGenerated bool             `json:"prompts_generated"`
	ServerType       string           `json:"server_type"` // node, python, uv, binary
	Runtime          ExtensionRuntime `json:"runtime"`
	Platforms        []string         `json:"platforms"`   // empty: every platform
	Runs             string           `json:"runs"`        // the command line before substitution (Inspection.RunsText)
	Environment      string           `json:"environment"` // KEY=VALUE words before substitution; "" for none
	Signature        ExtensionSig     `json:"signature"`
	PrivacyPolicies  []string         `json:"privacy_policies"` // URLs
	Namespace        string           `json:"namespace"`
	Installed        string           `json:"installed"` // the version installed now ("" for a new install)
	Blocking         []string         `json:"blocking"`  // why it cannot be installed here; Install is refused
	Warnings         []string         `json:"warnings"`  // what it needs that is missing (a runtime); not in the way
	Files            int              `json:"files"`
	Bytes            int64            `json:"bytes"`
	Fields           []ExtensionField `json:"fields"`  // user_config, in the manifest's order
	Sandbox          ExtensionSandbox `json:"sandbox"` // the "Run it in a sandbox" box (extsandbox.go)
	Digest           string           `json:"digest"`
}

// ExtensionAuthor is the manifest's author; Name is always set.
type ExtensionAuthor struct {
	Name  string `json:"name"`
	Email string `json:"email"`
	URL   string `json:"url"`
}

// ExtensionItem is a tool or prompt the manifest declares.
type ExtensionItem struct {
	Name        string `json:"name"`
	Description string `json:"description"`
}

// ExtensionRuntime is the runtime the server needs (Name "" for a binary
// server): Found is the version found on the launch search PATH ("" when
// missing), Fits whether it is in Range (false when missing, or found but
// outside the range: the dialog then says it does not match), URL where
// to get it.
type ExtensionRuntime struct {
	Name  string `json:"name"`
	Title string `json:"title"`
	Range string `json:"range"`
	URL   string `json:"url"`
	Found string `json:"found"`
	Fits  bool   `json:"fits"`
}

// ExtensionSig is the signature status: "unsigned", "self-signed",
// "signed" (by Subject) or "invalid" (Problem says why).
type ExtensionSig struct {
	Status  string `json:"status"`
	Subject string `json:"subject"`
	Problem string `json:"problem"`
}

// ExtensionField is one user_config field of the form. Default has the
// substitutions (${HOME}, …) applied; nil for none; on an upgrade it is
// the installed version's value when it has one that fits (never a
// sensitive one). Kept is true on an
// upgrade when the installed version has a value for it, which is kept
// when the field is left empty (a sensitive one is never shown).
type ExtensionField struct {
	Key         string   `json:"key"`
	Type        string   `json:"type"` // string, number, boolean, directory, file
	Title       string   `json:"title"`
	Description string   `json:"description"`
	Required    bool     `json:"required"`
	Default     any      `json:"default"`
	Multiple    bool     `json:"multiple"`
	Sensitive   bool     `json:"sensitive"`
	Min         *float64 `json:"min"`
	Max         *float64 `json:"max"`
	Kept        bool     `json:"kept"`
}

// InstalledExtension is one row of Settings → Extensions. Error is set
// (and the rest may be empty but Name) for a record that cannot be read.
type InstalledExtension struct {
	Name        string   `json:"name"`
	DisplayName string   `json:"display_name"`
	Version     string   `json:"version"`
	Namespace   string   `json:"namespace"`
	Signature   string   `json:"signature"`
	Signer      string   `json:"signer"`
	InstalledAt string   `json:"installed_at"` // RFC 3339, UTC
	Sensitive   []string `json:"sensitive"`    // keys whose values are in the keychain (names only)
	// Sandboxed is true when its server runs in a sandbox; Access is that
	// sandbox in words, or tool.FullAccess (docs/sandbox.md#in-words).
	// SandboxUnsupported says why this system cannot enforce the default
	// sandbox ("" when it can): the toggle cannot turn it on then.
	Sandboxed          bool   `json:"sandboxed"`
	Access             string `json:"access"`
	SandboxUnsupported string `json:"sandbox_unsupported"`
	Error              string `json:"error"`
}

// ExtensionInstalled is what InstallExtension did.
type ExtensionInstalled struct {
	Name        string `json:"name"`
	DisplayName string `json:"display_name"`
	Version     string `json:"version"`
	Namespace   string `json:"namespace"`
	Upgraded    string `json:"upgraded"` // the version replaced, "" for a new install
}

// extensionDialogs are the pickers of the installer; wailsUI has them. A
// Dialogs without them uses ChooseFile and ChooseDirectory.
type extensionDialogs interface {
	ChooseExtension(title, start string) (string, error)
	ChooseFiles(title, start string) ([]string, error)
}

// anyFileDialog is the file chooser of a file field: any kind of file,
// unlike Dialogs.ChooseFile, which offers JSON files first.
type anyFileDialog interface {
	ChooseAnyFile(title, start string) (string, error)
}

// ChooseExtensionFile asks for an extension file (*.mcpb, *.dxt) with the
// native picker, starting in the home folder; "" when the person cancels.
func (x *Extensions) ChooseExtensionFile() (string, error) {
	if x.dialogs == nil {
		return "", errors.New("no file picker is available")
	}
	home, _ := os.UserHomeDir()
	if d, ok := x.dialogs.(extensionDialogs); ok {
		return d.ChooseExtension("Choose an extension to install", home)
	}
	return x.dialogs.ChooseFile("Choose an extension to install", home)
}

// ChooseExtensionPath asks for the value of a directory or file field of
// the install form: kind is "directory", "file" or "files" (several
// files); title is the dialog's title. It returns the paths chosen (none
// when the person cancels).
func (x *Extensions) ChooseExtensionPath(kind, title string) ([]string, error) {
	if x.dialogs == nil {
		return nil, errors.New("no file picker is available")
	}
	home, _ := os.UserHomeDir()
	var p string
	var err error
	switch kind {
	case manifest.FieldDirectory:
		p, err = x.dialogs.ChooseDirectory(title, home)
	case manifest.FieldFile:
		if d, ok := x.dialogs.(anyFileDialog); ok {
			p, err = d.ChooseAnyFile(title, home)
		} else {
			p, err = x.dialogs.ChooseFile(title, home)
		}
	case "files":
		if d, ok := x.dialogs.(extensionDialogs); ok {
			return d.ChooseFiles(title, home)
		}
		p, err = x.dialogs.ChooseFile(title, home)
	default:
		return nil, fmt.Errorf("unknown path kind %q: use directory, file or files", kind)
	}
	if err != nil || p == "" {
		return []string{}, err
	}
	return []string{p}, nil
}

// PreviewExtension opens and checks the extension file at path
// (extension.Store.Inspect, with the runtimes found on the launch search
// PATH and the namespaces of the app's tools and servers file taken).
// Nothing is written. The error is the archive's or the manifest's
// (naming manifest.json:LINE:COL and the fix).
func (x *Extensions) PreviewExtension(path string) (ExtensionPreview, error) {
	in, digest, err := x.inspectExtensionFile(path)
	noteExtensionPreview(path, err)
	if err != nil {
		return ExtensionPreview{}, err
	}
	host, err := manifest.ThisHost()
	if err != nil {
		return ExtensionPreview{}, err
	}
	p, err := extensionPreview(in, digest, host)
	if err != nil {
		return ExtensionPreview{}, err
	}
	p.Sandbox = extensionSandbox(in)
	return p, nil
}

// InstallExtension installs the extension file at path when it is the one
// previewed (its sha256 equals digest; otherwise nothing is written),
// with values the form's user_config values by key (string, number,
// boolean, or a list of strings for a multiple field; a field left out
// takes its default, or on an upgrade the installed value). Sensitive
// values go to the OS keychain, never to a file or the log. sandboxed is
// the "Run it in a sandbox" box: the default preset, set with
// Store.SetSandbox after the install (an upgrade that keeps a sandbox
// keeps it when the box stays on); it is refused before anything is
// written when this system cannot enforce it. The providers are then
// applied again: new chats can use it at once; open chats keep theirs.
func (x *Extensions) InstallExtension(path, digest string, values map[string]any, sandboxed bool) (ExtensionInstalled, error) {
	x.servers.writeMu.Lock() // one install (or import) at a time
	defer x.servers.writeMu.Unlock()
	in, now, err := x.inspectExtensionFile(path)
	if err != nil {
		return ExtensionInstalled{}, err
	}
	if now != digest {
		return ExtensionInstalled{}, fmt.Errorf("%s changed since it was shown; look at it again before installing (nothing was installed)", visibleName(in.Path))
	}
	if err := checkSandboxChoice(in.Manifest.Name, sandboxed); err != nil {
		return ExtensionInstalled{}, err
	}
	host, err := manifest.ThisHost()
	if err != nil {
		return ExtensionInstalled{}, err
	}
	rec, err := x.extensionStore().Install(in, values, host)
	if err != nil {
		return ExtensionInstalled{}, err
	}
	chosen, err := x.applySandboxChoice(rec, sandboxed)
	if err != nil {
		x.extensionsChanged() // installed, without the sandbox chosen: new chats get it as the list says
		return ExtensionInstalled{}, fmt.Errorf("extension %s %s was installed, but its sandbox was not set: %w; set it in Settings → Extensions", rec.Name, rec.Version, err)
	}
	rec = chosen
	out := ExtensionInstalled{Name: rec.Name, DisplayName: rec.DisplayName, Version: rec.Version, Namespace: rec.Namespace}
	if in.Installed != nil {
		out.Upgraded = in.Installed.Version
	}
	// Keys only: a value never goes to the log.
	x.log.Info("extension installed", "name", rec.Name, "version", rec.Version, "namespace", rec.Namespace, "from", rec.Source,
		"signature", rec.Signature, "sensitive_keys", rec.Sensitive, "access", rec.Sandbox.Words())
	x.extensionsChanged()
	return out, nil
}

// Extensions lists the installed extensions by name, with a row naming
// the problem for each record that cannot be read.
func (x *Extensions) Extensions() ([]InstalledExtension, error) {
	recs, errs := x.extensionStore().List()
	out := []InstalledExtension{}
	unsupported := sandboxUnsupported()
	for _, r := range recs {
		out = append(out, InstalledExtension{Name: r.Name, DisplayName: r.DisplayName, Version: r.Version, Namespace: r.Namespace,
			Signature: r.Signature, Signer: r.Signer, InstalledAt: r.InstalledAt.UTC().Format("2006-01-02T15:04:05Z07:00"),
			Sensitive: append([]string{}, r.Sensitive...), Sandboxed: r.Sandbox != nil, Access: r.Sandbox.Words(), SandboxUnsupported: unsupported})
	}
	for _, err := range errs {
		out = append(out, InstalledExtension{Name: damagedName(x.extensionsDir(), err), Error: err.Error()})
	}
	return out, nil
}

// RemoveExtension removes the installed extension name, its keychain
// values first (extension.Store.Remove), and applies the providers again:
// new chats no longer have it; open chats keep theirs until they close.
func (x *Extensions) RemoveExtension(name string) ([]InstalledExtension, error) {
	rec, err := x.extensionStore().Remove(name)
	if rec.Name != "" || err == nil {
		x.extensionsChanged()
	}
	if err != nil {
		return nil, err
	}
	x.log.Info("extension removed", "name", name, "version", rec.Version, "namespace", rec.Namespace)
	return x.Extensions()
}

// extensionsChanged applies the providers again (servers file and
// extensions) and tells the UI the coworkers may resolve differently.
func (x *Extensions) extensionsChanged() {
	x.servers.apply(false)
	x.coworkers.relist(x.settings.coworkersDir())
}

// inspectExtensionFile inspects path and returns the sha256 of its bytes;
// the file is hashed before and after it is read, and a change between
// the two is an error (it is being written).
func (x *Extensions) inspectExtensionFile(path string) (*extension.Inspection, string, error) {
	if path == "" {
		return nil, "", errors.New("no extension file: choose one")
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, "", err
	}
	before, err := fileDigest(abs)
	if err != nil {
		return nil, "", err
	}
	in, err := x.extensionStore().Inspect(abs, x.inspectOptions())
	if err != nil {
		return nil, "", err
	}
	after, err := fileDigest(abs)
	if err != nil {
		return nil, "", err
	}
	if before != after {
		return nil, "", fmt.Errorf("%s changed while it was read; wait until it is fully downloaded and open it again", visibleName(abs))
	}
	return in, after, nil
}

// inspectOptions are the host facts an Inspect checks: the runtimes on the
// search PATH providers are started with, the namespaces of the app's own
// tools and of the servers file in use.
func (x *Extensions) inspectOptions() extension.InspectOptions {
	ctx := x.base
	if ctx == nil {
		ctx = context.Background()
	}
	sp := x.launchPath(ctx)
	taken := map[string]bool{}
	if cfg := x.servers.state().cfg; cfg != nil {
		for _, e := range cfg.Entries {
			taken[e.Server.Namespace] = true
		}
	}
	return extension.InspectOptions{
		Runtimes: extension.FindRuntimes(ctx, launch.Search{Path: sp.Path}),
		Taken:    func(ns string) bool { _, mcp := x.reg.Server(ns); return taken[ns] || mcp || x.reg.IsNative(ns) },
	}
}

// fileDigest is the sha256 of the file at path, in hex.
func fileDigest(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", fmt.Errorf("%s cannot be read: %w", visibleName(path), err)
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, io.LimitReader(f, archive.MaxFileBytes+1)); err != nil {
		return "", fmt.Errorf("%s cannot be read: %w", visibleName(path), err)
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// extensionPreview is the dialog's view of in.
func extensionPreview(in *extension.Inspection, digest string, host manifest.Host) (ExtensionPreview, error) {
	m := in.Manifest
	defaults, err := m.Defaults(host)
	if err != nil {
		return ExtensionPreview{}, fmt.Errorf("%s: %w", visibleName(in.Path), err)
	}
	p := ExtensionPreview{Path: in.Path, DisplayName: m.Title(), Name: m.Name, Version: m.Version,
		Author:      ExtensionAuthor{Name: m.Author.Name, Email: m.Author.Email, URL: m.Author.URL},
		Description: m.Description, Homepage: m.Homepage, ToolsGenerated: m.ToolsGenerated, PromptsGenerated: m.PromptsGenerated,
		ServerType: m.Server.Type, Runs: in.RunsText(), Environment: in.EnvText(), Platforms: append([]string{}, m.Compatibility.Platforms...),
		Signature:       ExtensionSig{Status: string(in.Signature.Status), Subject: in.Signature.Subject, Problem: in.Signature.Problem},
		PrivacyPolicies: append([]string{}, m.PrivacyPolicies...), Namespace: in.Namespace,
		Blocking: append([]string{}, in.Blocking...), Warnings: append([]string{}, in.Warnings...),
		Files: in.Files, Bytes: in.Bytes, Digest: digest, Tools: []ExtensionItem{}, Prompts: []ExtensionItem{}, Fields: []ExtensionField{}}
	if rt := in.Runtime; rt.Name != "" {
		p.Runtime = ExtensionRuntime{Name: rt.Name, Title: rt.Title, Range: rt.Range, URL: rt.URL, Found: in.Runtimes[rt.Name]}
		p.Runtime.Fits = in.RuntimeFits()
	}
	if in.Installed != nil {
		p.Installed = in.Installed.Version
	}
	for _, t := range m.Tools {
		p.Tools = append(p.Tools, ExtensionItem{Name: t.Name, Description: t.Description})
	}
	for _, pr := range m.Prompts {
		p.Prompts = append(p.Prompts, ExtensionItem{Name: pr.Name, Description: pr.Description})
	}
	for _, f := range m.UserConfig {
		ef := ExtensionField{Key: f.Key, Type: f.Type, Title: f.Title, Description: f.Description, Required: f.Required,
			Default: defaults[f.Key], Multiple: f.Multiple, Sensitive: f.Sensitive, Min: f.Min, Max: f.Max}
		if in.Installed != nil {
			v, has := in.Installed.Values[f.Key]
			ef.Kept = has || slices.Contains(in.Installed.Sensitive, f.Key)
			if has && !f.Sensitive && f.Accepts(v) {
				ef.Default = v // the form shows what Install keeps, not the new default
			}
		}
		p.Fields = append(p.Fields, ef)
	}
	return p, nil
}

// damagedName is the extension folder an error of Store.List is about,
// as far as it names one under dir; "" when it does not.
func damagedName(dir string, err error) string {
	var ni *extension.NotInstalledError
	if errors.As(err, &ni) {
		return ni.Name
	}
	msg := err.Error()
	prefix := dir + string(filepath.Separator)
	if i := strings.Index(msg, prefix); i >= 0 {
		rest := msg[i+len(prefix):]
		for k, r := range rest {
			if r == filepath.Separator || r == ':' || r == ' ' {
				return rest[:k]
			}
		}
		return rest
	}
	return ""
}
