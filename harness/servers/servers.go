package servers

import (
	"errors"
	"fmt"
	"strings"

	"github.com/openworker/desktop/harness/internal/jsonfile"

	"github.com/openworker/desktop/harness/tool"
)

// RegisterServersFile registers in reg every MCP provider of a
// configuration file (the --servers flag): the product's servers.json or
// any format ReadConfig reads (docs/servers.md). opts may be nil.
//
// One bad entry disables only its provider: it is recorded with
// reg.RegisterBroken (so a bundle that uses its namespace fails to
// resolve with the entry's error, and `openworker check` names it), and
// every other entry is registered. An entry the registry refuses (its
// namespace is already the binary's own: the built-in device provider, the
// native notification tools) gets that error in its ConfigEntry.Err, at
// the entry's name, with the fix. A file that cannot be read at all is
// recorded as broken too (namespace ""), so bundles without MCP providers
// still resolve. Disabled entries are skipped. Nothing here is a
// registration error that would stop the runtime from opening.
//
// It returns the file as read (nil when it could not be read) and the
// problems found, joined: the whole-file error, or each bad entry's. After
// Freeze it returns tool.ErrFrozen and reads nothing.
func RegisterServersFile(reg *tool.Registry, path string, opts *ConfigOptions) (*Config, error) {
	if reg.Frozen() {
		return nil, tool.ErrFrozen
	}
	cfg, err := ReadConfig(path, opts)
	if err != nil {
		if ferr := reg.RegisterBrokenMCP("", path, err); errors.Is(ferr, tool.ErrFrozen) {
			return nil, ferr
		}
		return nil, err
	}
	var errs []error
	for i := range cfg.Entries {
		e := &cfg.Entries[i]
		if e.Disabled && e.Err == nil {
			continue
		}
		if e.Err == nil {
			if err := cfg.checkEntry(reg, e); errors.Is(err, tool.ErrFrozen) {
				return cfg, err
			}
		}
		if e.Err != nil {
			if e.Disabled {
				continue
			}
			if err := reg.RegisterBroken(e.broken()); errors.Is(err, tool.ErrFrozen) {
				return cfg, err
			}
			errs = append(errs, e.Err)
			continue
		}
		if err := reg.RegisterMCPEntry(e.Server); err != nil {
			if errors.Is(err, tool.ErrFrozen) {
				return cfg, err
			}
			errs = append(errs, err)
		}
	}
	return cfg, errors.Join(errs...)
}

// CheckRegistry gives each usable entry that reg would refuse (its
// namespace is already the binary's own: a provider registered in code,
// native tools) that error in its Err, at the entry's name with the fix
// (docs/servers.md#namespaces), so Servers lists it as broken.
// RegisterServersFile does this as it registers; a host that installs the
// entries with harness.Runtime.SetServers calls it first with the registry
// it gave the runtime.
func (c *Config) CheckRegistry(reg *tool.Registry) {
	for i := range c.Entries {
		if e := &c.Entries[i]; e.Err == nil && !e.Disabled {
			_ = c.checkEntry(reg, e)
		}
	}
}

// checkEntry sets e.Err when reg refuses e; it returns reg's error.
func (c *Config) checkEntry(reg *tool.Registry, e *ConfigEntry) error {
	err := reg.CheckMCP(e.Server)
	if err != nil && !errors.Is(err, tool.ErrFrozen) {
		e.Err = registrationError(reg, c.Path, e, err)
	}
	return err
}

// registrationError is the error of an entry the registry refused, at
// the entry's name: for a namespace the binary already has, what has it
// and the fix (rename the server).
func registrationError(reg *tool.Registry, path string, e *ConfigEntry, err error) error {
	var taken *tool.NamespaceTakenError
	if !errors.As(err, &taken) {
		return &jsonfile.Error{File: path, Line: e.Line, Col: e.Col, Msg: fmt.Sprintf("server %q cannot be registered: %v", e.Name, err),
			Fix: fmt.Sprintf("fix the entry in %s", path)}
	}
	ns := taken.Namespace
	var owner string
	switch {
	case taken.NativeTool != "":
		var names []string
		for _, d := range reg.Descriptors() {
			if strings.HasPrefix(d.Name, ns+".") {
				names = append(names, d.Name)
			}
		}
		owner = fmt.Sprintf("OpenWorker's built-in native tools %s", strings.Join(names, ", "))
	case taken.BuiltIn():
		owner = fmt.Sprintf("OpenWorker's built-in MCP provider %q", ns)
		if taken.Provider.Program != "" {
			owner += fmt.Sprintf(" (program %s)", taken.Provider.Program)
		}
	default:
		owner = fmt.Sprintf("the MCP provider from %s", taken.Provider.Source)
	}
	return &jsonfile.Error{File: path, Line: e.Line, Col: e.Col,
		Msg: fmt.Sprintf("server %q cannot have the namespace %q: %s %s it", e.Name, ns, owner, map[bool]string{true: "have", false: "has"}[taken.NativeTool != ""]),
		Fix: fmt.Sprintf("rename the server in %s, and select its tools as NEW_NAME.TOOL: the namespace %s is %s", path, ns, ownerShort(taken))}
}

func ownerShort(taken *tool.NamespaceTakenError) string {
	switch {
	case taken.NativeTool != "":
		return "OpenWorker's built-in native tools"
	case taken.BuiltIn():
		return "OpenWorker's built-in MCP provider"
	}
	return "another file's MCP provider (" + taken.Provider.Source + ")"
}

// ReadServersFile reads a configuration file without registering anything
// and without asking for inputs: the providers of its usable entries, in
// file order, and every problem found (the whole-file error, or each bad
// entry's, joined). ReadConfig tells the entries apart.
func ReadServersFile(path string) ([]tool.MCPServer, error) {
	cfg, err := ReadConfig(path, nil)
	if err != nil {
		return nil, err
	}
	servers, _ := cfg.Servers()
	return servers, cfg.Err()
}
