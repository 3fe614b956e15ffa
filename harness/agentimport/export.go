package agentimport

import (
	"archive/zip"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/openworker/desktop/harness/bundle"
	"github.com/openworker/desktop/harness/internal/atomicfile"
	"github.com/openworker/desktop/harness/servers"
	"github.com/openworker/desktop/harness/tool"
)

// ExportOptions says where an export's servers come from.
type ExportOptions struct {
	// Servers is the servers file (of any format) whose entries for the
	// coworker's providers go into the export; "" for none.
	Servers string
	// BuiltIn reports whether a namespace is a provider of the registry
	// itself, which needs no servers entry (device, files); nil for none.
	BuiltIn func(namespace string) bool
}

// Exported is what Export wrote.
type Exported struct {
	File string `json:"file"`
	ID   string `json:"id"`
	// Servers are the namespaces of the servers entries in the export.
	Servers []string `json:"servers"`
	// Inputs are the literal secrets of those entries that were replaced
	// by inputs (servers.MarshalShared).
	Inputs []servers.SharedInput `json:"inputs"`
	// LeftOut are the providers the coworker uses that are not in the
	// export, each with why ("device: a built-in provider").
	LeftOut []string `json:"left_out"`
}

// Export writes the coworker id of the coworkers folder to out, one .zip
// (docs/import-agents.md#export): its bundle (manifest.md, tools.json,
// skills) as it is, and the servers entries of the providers its tools
// name, taken from opts.Servers and written with every literal secret
// replaced by an input (servers.MarshalShared), so that the zip holds
// no secret. Import (Preview and Apply) reads it back. The bundle must
// load; a link inside it is refused (only folders and regular files are
// exported). out is written in one step (a temporary file beside it,
// then a rename).
func Export(coworkers, id, out string, opts *ExportOptions) (*Exported, error) {
	var o ExportOptions
	if opts != nil {
		o = *opts
	}
	d, root, err := loadForExport(coworkers, id)
	if err != nil {
		return nil, err
	}
	ex := &Exported{File: out, ID: id, Servers: []string{}, Inputs: []servers.SharedInput{}, LeftOut: []string{}}
	entries, err := o.pickServers(ex, neededProviders(d))
	if err != nil {
		return nil, err
	}
	var serversData []byte
	if len(entries) > 0 {
		var inputs []servers.SharedInput
		if serversData, inputs, err = servers.MarshalShared(entries); err != nil {
			return nil, fmt.Errorf("the servers of coworker %s cannot be exported: %w", id, err)
		}
		ex.Inputs = append(ex.Inputs, inputs...)
	}
	data, err := exportZip(ex, root, serversData)
	if err != nil {
		return nil, err
	}
	if err := atomicfile.WriteFile(out, data, 0o644); err != nil {
		return nil, fmt.Errorf("export coworker %s: %w", id, err)
	}
	return ex, nil
}

// loadForExport checks that coworker id of the coworkers folder loads and
// returns its draft and the folder that holds its bundle (the target of
// a linked coworker).
func loadForExport(coworkers, id string) (*bundle.Draft, string, error) {
	if !bundle.IDPattern.MatchString(id) {
		return nil, "", fmt.Errorf("%q is not a coworker id", id)
	}
	dir := filepath.Join(coworkers, id)
	if _, err := bundle.Load(dir); err != nil {
		return nil, "", fmt.Errorf("coworker %s cannot be exported while it does not load: %w", id, err)
	}
	d, _, err := bundle.ReadDraft(dir)
	if err != nil {
		return nil, "", err
	}
	root := dir
	if t, linked := bundle.LinkTarget(dir); linked {
		root = t
	}
	return &d, root, nil
}

// neededProviders returns the namespaces of the providers d uses (its
// tools' and its whole providers'), sorted.
func neededProviders(d *bundle.Draft) []string {
	needed := map[string]bool{}
	for _, t := range d.Tools {
		if ns, _, err := tool.SplitName(t); err == nil {
			needed[ns] = true
		}
	}
	for _, ns := range d.WholeProviders {
		needed[ns] = true
	}
	names := make([]string, 0, len(needed))
	for ns := range needed {
		names = append(names, ns)
	}
	sort.Strings(names)
	return names
}

// pickServers returns the servers entries of o.Servers for the namespaces
// names, recording each in ex.Servers, or in ex.LeftOut with why when it
// has none.
func (o ExportOptions) pickServers(ex *Exported, names []string) ([]servers.ConfigEntry, error) {
	var cfg *servers.Config
	if o.Servers != "" {
		var err error
		if cfg, err = servers.ReadConfig(o.Servers, nil); err != nil {
			return nil, err
		}
	}
	var entries []servers.ConfigEntry
	for _, ns := range names {
		found := configEntry(cfg, ns)
		switch {
		case found != nil:
			entries = append(entries, *found)
			ex.Servers = append(ex.Servers, ns)
		case o.BuiltIn != nil && o.BuiltIn(ns):
			ex.LeftOut = append(ex.LeftOut, fmt.Sprintf("%s: a provider built into OpenWorker, which the importer has too", ns))
		case o.Servers == "":
			ex.LeftOut = append(ex.LeftOut, fmt.Sprintf("%s: no servers file was given to take its entry from; the importer adds the server itself", ns))
		default:
			ex.LeftOut = append(ex.LeftOut, fmt.Sprintf("%s: %s has no entry for it; the importer adds the server itself", ns, o.Servers))
		}
	}
	return entries, nil
}

// configEntry returns the last entry of cfg for namespace ns, nil when
// there is none (or no cfg).
func configEntry(cfg *servers.Config, ns string) *servers.ConfigEntry {
	var found *servers.ConfigEntry
	if cfg != nil {
		for i, e := range cfg.Entries {
			if e.Server.Namespace == ns {
				found = &cfg.Entries[i]
			}
		}
	}
	return found
}

// exportZip builds the export's zip: its manifest (from ex), the bundle
// under root and, when there are any, the servers entries serversData.
func exportZip(ex *Exported, root string, serversData []byte) ([]byte, error) {
	man, err := json.MarshalIndent(exportManifest{Format: ExportFormat, Version: ExportVersion, Coworker: ex.ID,
		Servers: ex.Servers, Inputs: ex.Inputs, LeftOut: ex.LeftOut}, "", "  ")
	if err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	if err := addFile(zw, exportMarker, append(man, '\n')); err != nil {
		return nil, err
	}
	if err := addBundle(zw, root, ex.ID); err != nil {
		return nil, err
	}
	if serversData != nil {
		if err := addFile(zw, exportServers, serversData); err != nil {
			return nil, err
		}
	}
	if err := zw.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// addFile adds the file name holding data to zw.
func addFile(zw *zip.Writer, name string, data []byte) error {
	w, err := zw.Create(name)
	if err == nil {
		_, err = w.Write(data)
	}
	return err
}

// addBundle adds root/coworker as <id>/coworker: folders and regular
// files; names starting with "." (temporary files of a save) are left
// out; a link is an error.
func addBundle(zw *zip.Writer, root, id string) error {
	cw := filepath.Join(root, "coworker")
	return filepath.WalkDir(cw, func(p string, e fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		name := id + "/" + filepath.ToSlash(rel)
		if strings.HasPrefix(e.Name(), ".") && p != cw {
			if e.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		switch t := e.Type(); {
		case t.IsDir():
			_, err := zw.Create(name + "/")
			return err
		case t.IsRegular():
			f, err := os.Open(p)
			if err != nil {
				return err
			}
			defer f.Close()
			w, err := zw.Create(name)
			if err != nil {
				return err
			}
			_, err = io.Copy(w, f)
			return err
		default:
			return fmt.Errorf("%s is a link or a special file; only folders and regular files are exported: copy what it points to into the bundle", p)
		}
	})
}
