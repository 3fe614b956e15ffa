package app

import (
	"fmt"

	"github.com/openworker/desktop/harness/extension"
	"github.com/openworker/desktop/harness/sandbox"
	"github.com/openworker/desktop/harness/tool"
)

// An extension's sandbox in the app (docs/extensions.md#sandbox,
// docs/app.md#opening-an-extension): the installer's "Run it in a
// sandbox" box and the toggle of Settings → Extensions give it the
// default preset (tool.DefaultSandbox) or take it away; the providers are
// then applied again, so new chats start its server inside it and open
// chats keep theirs.

// SandboxPresetWords describes the default preset as an extension gets it
// (the folders of its settings added, harness/extension placementFor), for
// the installer's box.
const SandboxPresetWords = "reads system files and its own folder, writes only in the workspace, its temp folder and the folders of its settings, no network"

// SandboxNote is the installer's one-line warning under the box.
const SandboxNote = "An extension that needs the network or other folders will fail inside it; turn the sandbox off for it in Settings → Extensions."

// ExtensionSandbox is what the installer shows of the sandbox choice.
// On is where the box starts: the installed record's choice on an
// upgrade, off for a new install. Unsupported says why this system cannot
// enforce the default preset (sandbox.Supported); "" when it can. The box
// is then disabled.
type ExtensionSandbox struct {
	Words       string `json:"words"` // SandboxPresetWords
	Note        string `json:"note"`  // SandboxNote
	On          bool   `json:"on"`
	Unsupported string `json:"unsupported"`
}

// sandboxUnsupported is why the default preset cannot be enforced here,
// "" when it can.
func sandboxUnsupported() string {
	if err := sandbox.Supported(tool.DefaultSandbox()); err != nil {
		return err.Error()
	}
	return ""
}

// extensionSandbox is the installer's sandbox choice for in.
func extensionSandbox(in *extension.Inspection) ExtensionSandbox {
	s := ExtensionSandbox{Words: SandboxPresetWords, Note: SandboxNote, Unsupported: sandboxUnsupported()}
	if in.Installed != nil {
		s.On = in.Installed.Sandbox != nil
	}
	return s
}

// checkSandboxChoice refuses on when this system cannot enforce the
// default preset, before anything is written.
func checkSandboxChoice(name string, on bool) error {
	if !on {
		return nil
	}
	if err := sandbox.Supported(tool.DefaultSandbox()); err != nil {
		return fmt.Errorf("extension %s cannot run in a sandbox on this computer: %w (nothing was changed)", name, err)
	}
	return nil
}

// applySandboxChoice makes rec's sandbox match on: the default preset
// when on and it has none, none when off. A sandbox it already has (an
// upgrade keeps a custom one) stays when on.
func (x *Extensions) applySandboxChoice(rec extension.Record, on bool) (extension.Record, error) {
	switch {
	case on && rec.Sandbox == nil:
		return x.extensionStore().SetSandbox(rec.Name, tool.DefaultSandbox())
	case !on && rec.Sandbox != nil:
		return x.extensionStore().SetSandbox(rec.Name, nil)
	}
	return rec, nil
}

// SetExtensionSandbox runs the installed extension name in the default
// sandbox (on) or with the person's full access (off), and applies the
// providers again: new chats start its server so; open chats keep theirs
// until they close. It returns the list as Extensions does. On is refused
// when this system cannot enforce the sandbox.
func (x *Extensions) SetExtensionSandbox(name string, on bool) ([]InstalledExtension, error) {
	if err := checkSandboxChoice(name, on); err != nil {
		return nil, err
	}
	rec, err := x.extensionStore().Get(name)
	if err != nil {
		return nil, err
	}
	rec, err = x.applySandboxChoice(rec, on)
	if err != nil {
		return nil, err
	}
	x.log.Info("extension sandbox", "name", rec.Name, "version", rec.Version, "access", rec.Sandbox.Words())
	x.extensionsChanged()
	return x.Extensions()
}
