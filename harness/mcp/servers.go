package mcp

import (
	"errors"

	"github.com/openworker/desktop/harness/tool"
)

// RegisterServersFile registers in reg every MCP provider of a
// configuration file (the --servers flag): the product's servers.json or
// any format ReadConfig reads (docs/servers.md). opts may be nil.
//
// One bad entry disables only its provider: it is recorded with
// reg.RegisterBrokenMCP (so a bundle that uses its namespace fails to
// resolve with the entry's error, and `openworker check` names it), and
// every other entry is registered. A file that cannot be read at all is
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
	servers, broken := cfg.Servers()
	var errs []error
	for _, b := range broken {
		if err := reg.RegisterBrokenMCP(b.Namespace, b.Source, b.Err); errors.Is(err, tool.ErrFrozen) {
			return cfg, err
		}
		errs = append(errs, b.Err)
	}
	for _, s := range servers {
		if err := reg.RegisterMCPEntry(s); err != nil {
			if errors.Is(err, tool.ErrFrozen) {
				return cfg, err
			}
			errs = append(errs, err)
		}
	}
	return cfg, errors.Join(errs...)
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
