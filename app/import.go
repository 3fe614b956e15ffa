package app

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"time"

	"github.com/zalando/go-keyring"

	"github.com/openworker/desktop/harness/servers"
	"github.com/openworker/desktop/harness/settings"
)

// Importing another MCP client's config into the app's servers.json
// (docs/servers.md#import): Settings → "Import MCP servers…" lists the
// files found (FindServerConfigs) or picks one (ChooseImportFile), shows
// what each entry becomes (PreviewImport) and writes only when the person
// confirms (ApplyImport). `openworker servers import` uses the same rule
// through settings.ImportTarget and settings.UseServersFile.

// FoundServerConfig is another MCP client's config file at its default
// location (servers.ClientConfigs).
type FoundServerConfig struct {
	Client  string `json:"client"`  // "Claude Desktop", "Cursor", "VS Code", …
	Path    string `json:"path"`    // absolute
	Format  string `json:"format"`  // the format it is read as (docs/servers.md#formats)
	Servers int    `json:"servers"` // its server entries, readable or not
	// Error is why the file cannot be imported at all (malformed, no
	// server list), with file, line and column; "" when it reads.
	Error string `json:"error"`
	InUse bool   `json:"in_use"` // it is the servers file the app uses now
}

// FindServerConfigs lists the config files of other MCP clients (Claude
// Desktop, Cursor, VS Code, Windsurf, Cline, Roo Code, Amazon Q) that
// exist at their default locations for this user (HOME, and APPDATA or
// XDG_CONFIG_HOME, as servers.ClientConfigs reads them), each with its number
// of servers or why it cannot be read. Nothing is asked and nothing is
// written.
func (sv *Servers) FindServerConfigs() ([]FoundServerConfig, error) {
	home, err := os.UserHomeDir()
	if err != nil {
		return nil, fmt.Errorf("find the home folder: %w", err)
	}
	inUse := sv.settings.get().ServersPath
	out := []FoundServerConfig{}
	for _, cc := range servers.ExistingClientConfigs(runtime.GOOS, home, os.Getenv) {
		f := FoundServerConfig{Client: cc.Client, Path: cc.Path, Format: cc.Format, InUse: cc.Path == inUse}
		if cfg, err := servers.ReadConfig(cc.Path, &servers.ConfigOptions{Format: servers.ConfigFormat(cc.Format)}); err != nil {
			f.Error = err.Error()
		} else {
			f.Servers = len(cfg.Entries)
		}
		out = append(out, f)
	}
	return out, nil
}

// ChooseImportFile asks for any MCP config file to import with the native
// picker, starting in the home folder, and returns its path ("" when the
// person cancels). Nothing is read or written.
func (sv *Servers) ChooseImportFile() (string, error) {
	if sv.dialogs == nil {
		return "", errors.New("no file picker is available")
	}
	home, _ := os.UserHomeDir()
	return sv.dialogs.ChooseFile("Choose an MCP config file to import", home)
}

// PreviewImport plans importing the config file at path (any format
// servers.ReadConfig reads) into the app's servers file: what each entry
// becomes (namespace, transport, command or URL without secrets, where it
// runs, what is ignored and why, why an entry is skipped), where it is
// written and the Digest ApplyImport needs. An entry in a namespace of
// the app's own tools (device, notification) is skipped, naming it
// (servers.PlanImportInto). Nothing is asked: an entry that needs an input or
// an unset environment variable is imported with its reference (Settings
// asks for inputs afterwards). Nothing is written.
//
// Each literal secret of an added entry's env and headers is listed
// (ImportItem.Secrets) to move to the OS keychain on import; NoKeychain
// says why it cannot when there is no keychain here.
func (sv *Servers) PreviewImport(path string) (*servers.ImportPlan, error) {
	plan, _, err := sv.planImport(path)
	if err == nil {
		noteEditor(fmt.Sprintf("servers import %d secrets", len(plan.Secrets()))) // e2e builds only (e2e_hook.go)
	}
	if err == nil && len(plan.Secrets()) > 0 {
		if kerr := inputsKeychainProbe(); kerr != nil {
			plan.NoKeychain = "there is no OS keychain on this computer (" + kerr.Error() + "); untick a secret to keep it in servers.json as written"
		}
	}
	return plan, err
}

// ApplyImport plans the import of path again and writes it only when the
// plan is the one previewed (its Digest equals digest; otherwise the file
// or the servers file changed since the preview, and nothing is written).
// The servers file before is kept as DEST.bak. Settings then use the
// written file (saved, and applied at once: new chats get its providers;
// open chats keep theirs). A plan that adds nothing writes nothing.
//
// The secrets of the plan (ImportItem.Secrets) move to the OS keychain,
// ${input:ID} written in their place, except those whose input ids are in
// keepLiteral (the person unticked "moves to the keychain"); a secret that
// cannot be kept there writes nothing (docs/servers.md#secrets-move-to-the-keychain).
func (sv *Servers) ApplyImport(path, digest string, keepLiteral []string) (SettingsView, error) {
	sv.servers.writeMu.Lock()
	defer sv.servers.writeMu.Unlock()
	plan, current, err := sv.planImport(path)
	if err != nil {
		return SettingsView{}, err
	}
	if plan.Digest != digest {
		return SettingsView{}, fmt.Errorf("the file changed since the preview (%s or the servers file %s); look again before importing", plan.From, plan.Dest)
	}
	if plan.Added() == 0 {
		return sv.prefs.GetSettings()
	}
	// The servers file and the settings naming it are written as one step
	// of the settings file (settingsStore.write: no save of Settings comes
	// between the check and the writes), then applied before any live
	// reload of the file this write causes (serversFile.change): that
	// reload finds the providers as applied here and says nothing new.
	var saveErr error
	err = sv.servers.change(func() error {
		return sv.settings.write(func(inUse, saved Settings) (Settings, Settings, error) {
			if inUse.ServersPath != current {
				return inUse, saved, errors.New("the servers file of Settings changed since the preview; look again before importing")
			}
			keep := map[string]bool{}
			for _, id := range keepLiteral {
				keep[id] = true
			}
			if err := plan.WriteMoving(keep, servers.SetInput); err != nil {
				return inUse, saved, err
			}
			sv.log.Info("servers imported", "from", plan.From, "format", plan.Format, "dest", plan.Dest, "added", plan.Added(), "secrets moved", len(plan.Secrets())-len(keep))
			file, err := updateSettingsFile(sv.paths.Settings, func(s *Settings) { s.ServersPath = plan.Dest })
			if inUse.ServersPath = plan.Dest; err == nil {
				saved = file
			}
			saveErr = err
			return inUse, saved, nil
		})
	})
	if err != nil {
		return SettingsView{}, err
	}
	if current != plan.Dest {
		sv.reloads.rewatchServers()
	}
	sv.coworkers.relist(sv.settings.coworkersDir())
	v := sv.prefs.view()
	if saveErr != nil {
		return v, fmt.Errorf("the servers were added to %s and are in use, but the settings could not be saved, so the next start uses the old servers file: %w", plan.Dest, saveErr)
	}
	return v, nil
}

// planImport reads path and plans its import into the app's servers file;
// current is the servers file in use when planned.
func (sv *Servers) planImport(path string) (*servers.ImportPlan, string, error) {
	if path == "" {
		return nil, "", errors.New("no file to import: choose one")
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, "", err
	}
	current, configDir := sv.settings.get().ServersPath, sv.paths.ConfigDir
	from, err := servers.ReadConfig(abs, nil) // Inputs nil: nothing is asked
	if err != nil {
		return nil, current, err
	}
	dest, err := settings.ImportDest(current, configDir)
	if err != nil {
		return nil, current, err
	}
	kept, err := servers.ImportKept(current, dest)
	if err != nil {
		return nil, current, err
	}
	plan, err := servers.PlanImportInto(from, kept, dest, servers.TakenNamespaces(sv.reg))
	return plan, current, err
}

// inputsKeychainProbe reads an account of the inputs' keychain service
// that is never written: not found means the keychain answered. It gives
// up after 5 s (a Secret Service that never answers).
func inputsKeychainProbe() error {
	done := make(chan error, 1)
	go func() {
		_, err := keyring.Get(servers.InputsKeychainService, "probe")
		if errors.Is(err, keyring.ErrNotFound) {
			err = nil
		}
		done <- err
	}()
	select {
	case err := <-done:
		return err
	case <-time.After(5 * time.Second):
		return errors.New("the keychain did not answer within 5 s")
	}
}

// inputsKeeper is where an import of agents moves the literal secrets of
// the servers it adds: the OS keychain when it answers, else nil (they
// are written as they are, as the preview says).
func inputsKeeper() servers.KeepSecret {
	if inputsKeychainProbe() != nil {
		return nil
	}
	return servers.SetInput
}
