package agentimport

import (
	"archive/zip"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/openworker/desktop/harness/bundle"
	"github.com/openworker/desktop/harness/servers"
	"github.com/openworker/desktop/harness/tool"
)

// An exported coworker (docs/import-agents.md#export) is a .zip:
//
//	openworker-export.json     the marker: format, version, coworker id, servers, inputs
//	<id>/coworker/manifest.md  the bundle, as it is in the coworkers folder
//	<id>/coworker/tools.json
//	<id>/coworker/skills/...
//	servers.json               the servers entries it needs, secrets as inputs (when any)

// Names in an export.
const (
	exportMarker  = "openworker-export.json"
	exportServers = "servers.json"
	// ExportFormat is the "format" of an export's marker.
	ExportFormat = "openworker-coworker"
	// ExportVersion is the version of the export layout written.
	ExportVersion = 1
)

// Limits of an export read.
const (
	MaxExportFiles = 2 * bundle.MaxSkillFiles // files and folders of its bundle
	MaxExportBytes = 2 * bundle.MaxSkillBytes // bytes of its bundle's files (128 MiB)
)

// exportManifest is openworker-export.json.
type exportManifest struct {
	Format   string                `json:"format"`
	Version  int                   `json:"version"`
	Coworker string                `json:"coworker"`
	Servers  []string              `json:"servers,omitempty"`  // namespaces in servers.json
	Inputs   []servers.SharedInput `json:"inputs,omitempty"`   // literal secrets replaced by inputs
	LeftOut  []string              `json:"left_out,omitempty"` // providers it uses that are not in servers.json, with why
}

// exportSource is the bundle of an export, extracted to a temporary
// folder for the preview.
type exportSource struct {
	zip   string
	id    string // as exported
	dir   string // tmp/<id>: the extracted bundle (removed when Preview returns)
	draft bundle.Draft
}

// readExport reads an exported coworker.
func (b *builder) readExport(zipPath string) {
	src := b.source(zipPath, KindExport)
	zr, err := zip.OpenReader(zipPath)
	if err != nil {
		b.problem("%s is not a readable zip: %v", zipPath, err)
		return
	}
	defer zr.Close()
	man, err := readExportManifest(zipPath, &zr.Reader)
	if err != nil {
		b.problem("%v", err)
		return
	}
	dir, d, ok := b.extractExport(zipPath, &zr.Reader, man.Coworker)
	if !ok {
		return
	}
	for _, l := range man.LeftOut {
		src.note("not in the export: %s", l)
	}
	for _, in := range man.Inputs {
		src.note("%s of MCP server %q was a secret: it is asked as input %q when the server is first used", in.Field, in.Namespace, in.Input)
	}
	if !b.readExportServers(zipPath, &zr.Reader) {
		return
	}
	b.agents = append(b.agents, exportAgent(zipPath, man.Coworker, dir, d))
}

// extractExport extracts the bundle of coworker id from the export zr to
// a temporary folder (removed with the builder's cleanup) and reads its
// draft, a problem for each thing that does not load; ok is false when
// it cannot be read at all.
func (b *builder) extractExport(zipPath string, zr *zip.Reader, id string) (dir string, d bundle.Draft, ok bool) {
	tmp, err := os.MkdirTemp("", "openworker-export-")
	if err != nil {
		b.problem("%s: %v", zipPath, err)
		return "", d, false
	}
	b.cleanup = append(b.cleanup, tmp)
	dir = filepath.Join(tmp, id)
	if err := extractTree(zipPath, zr, id+"/", dir); err != nil {
		b.problem("%v", err)
		return "", d, false
	}
	d, problems, err := bundle.ReadDraft(dir)
	if err != nil {
		b.problem("%s: %v", zipPath, err)
		return "", d, false
	}
	for _, p := range problems {
		b.problem("%s: the exported coworker does not load: %s", zipPath, strings.Replace(p.Error(), tmp+string(filepath.Separator), "", 1))
	}
	return dir, d, true
}

// readExportServers adds the servers entries of the export zr, if it has
// any, to b's configs; false (with a problem) when they cannot be read.
func (b *builder) readExportServers(zipPath string, zr *zip.Reader) bool {
	f := zipEntry(zr, exportServers)
	if f == nil {
		return true
	}
	data, err := readZipFile(f, servers.MaxServersFileBytes)
	if err != nil {
		b.problem("%s: %s: %v", zipPath, exportServers, err)
		return false
	}
	cfg, err := servers.ParseConfig(zipPath+":"+exportServers, data, &servers.ConfigOptions{Format: servers.FormatOpenWorker})
	if err != nil {
		b.problem("%v", err)
		return false
	}
	b.cfgs = append(b.cfgs, sourceConfig{cfg, zipPath})
	return true
}

// exportAgent is the agent source of the exported coworker id, extracted
// to dir with draft d: its tools and whole providers map as they are.
func exportAgent(zipPath, id, dir string, d bundle.Draft) *agentSource {
	ex := &exportSource{zip: zipPath, id: id, dir: dir, draft: d}
	a := &agentSource{kind: KindExport, path: zipPath, name: d.Name, description: d.Description, instructions: d.Instructions, model: d.Model, export: ex}
	a.mapTools = func(m *mapper, c *Coworker) {
		for _, q := range d.Tools {
			c.add(q, m.qualified(q))
		}
		for _, ns := range d.WholeProviders {
			if _, known := m.provider(ns); known {
				c.Mapped = append(c.Mapped, Mapping{From: ns, To: []string{}, Verified: false, Note: fmt.Sprintf("every tool of provider %q (tools.json version 1)", ns)})
			} else {
				c.Unmapped = append(c.Unmapped, Unmapped{Tool: ns, Reason: fmt.Sprintf("there is no provider %q in this OpenWorker or its servers file", ns)})
			}
		}
	}
	if names, err := skillFolders(filepath.Join(dir, "coworker", "skills")); err == nil {
		for _, n := range names {
			a.skills = append(a.skills, skillSource{name: n})
		}
	}
	return a
}

// readExportManifest reads and checks the marker of an export.
func readExportManifest(zipPath string, zr *zip.Reader) (*exportManifest, error) {
	f := zipEntry(zr, exportMarker)
	if f == nil {
		return nil, fmt.Errorf("%s has no %s: it is not a coworker exported by OpenWorker", zipPath, exportMarker)
	}
	data, err := readZipFile(f, 64<<10)
	if err != nil {
		return nil, fmt.Errorf("%s: %s: %v", zipPath, exportMarker, err)
	}
	var man exportManifest
	if err := json.Unmarshal(data, &man); err != nil {
		return nil, fmt.Errorf("%s: %s is not valid JSON: %v", zipPath, exportMarker, err)
	}
	switch {
	case man.Format != ExportFormat:
		return nil, fmt.Errorf("%s: %s has format %q, not %q", zipPath, exportMarker, man.Format, ExportFormat)
	case man.Version != ExportVersion:
		return nil, fmt.Errorf("%s was exported in layout version %d, which this OpenWorker does not read (it reads %d); update OpenWorker", zipPath, man.Version, ExportVersion)
	case !bundle.IDPattern.MatchString(man.Coworker):
		return nil, fmt.Errorf("%s: %s names coworker %q, which is not a coworker id", zipPath, exportMarker, man.Coworker)
	}
	return &man, nil
}

func zipEntry(zr *zip.Reader, name string) *zip.File {
	for _, f := range zr.File {
		if f.Name == name {
			return f
		}
	}
	return nil
}

// readZipFile reads one entry of at most max bytes (as read, not as the
// zip claims).
func readZipFile(f *zip.File, max int64) ([]byte, error) {
	r, err := f.Open()
	if err != nil {
		return nil, err
	}
	defer r.Close()
	data, err := io.ReadAll(io.LimitReader(r, max+1))
	if err != nil {
		return nil, err
	}
	if int64(len(data)) > max {
		return nil, fmt.Errorf("larger than %d KB", max>>10)
	}
	return data, nil
}

// extractTree extracts the entries of zr under prefix into the new
// folder dst: only folders and regular files; an entry that would land
// outside dst, a link, more than MaxExportFiles entries or more than
// MaxExportBytes bytes refuses the whole zip.
func extractTree(zipPath string, zr *zip.Reader, prefix, dst string) error {
	if err := os.MkdirAll(dst, 0o755); err != nil {
		return err
	}
	var files, total int64
	for _, f := range zr.File {
		rel, ok := strings.CutPrefix(f.Name, prefix)
		if !ok || rel == "" {
			continue
		}
		if files++; files > MaxExportFiles {
			return fmt.Errorf("%s holds more than %d files; it is refused", zipPath, MaxExportFiles)
		}
		clean := strings.TrimSuffix(rel, "/")
		if !staysInside(clean) {
			return fmt.Errorf("%s: entry %q would land outside the coworker folder; the zip is refused", zipPath, f.Name)
		}
		n, err := extractEntry(zipPath, f, filepath.Join(dst, filepath.FromSlash(clean)), MaxExportBytes-total)
		if err != nil {
			return err
		}
		total += n
	}
	return nil
}

// staysInside reports whether the slash path rel of a zip entry names a
// place inside the folder it is extracted to: relative, clean, no "..",
// no backslash, colon or NUL.
func staysInside(rel string) bool {
	return !(strings.ContainsAny(rel, `\:`) || strings.HasPrefix(rel, "/") || rel != path.Clean(rel) ||
		rel == ".." || strings.HasPrefix(rel, "../") || strings.Contains(rel, "\x00"))
}

// extractEntry extracts the zip entry f to out: a folder, or a regular
// file of at most limit bytes (n is the bytes written); any other kind
// of entry is an error.
func extractEntry(zipPath string, f *zip.File, out string, limit int64) (n int64, err error) {
	switch mode := f.Mode(); {
	case mode.IsDir():
		return 0, os.MkdirAll(out, 0o755)
	case mode.IsRegular():
		return extractFile(zipPath, f, out, limit)
	case mode&fs.ModeSymlink != 0:
		return 0, fmt.Errorf("%s: %s is a link; links in an export are refused", zipPath, f.Name)
	default:
		return 0, fmt.Errorf("%s: %s is not a regular file", zipPath, f.Name)
	}
}

// extractFile writes the regular file f of the zip to the new file out,
// refusing more than limit bytes (as read, not as the zip claims); n is
// the bytes written.
func extractFile(zipPath string, f *zip.File, out string, limit int64) (n int64, err error) {
	if err := os.MkdirAll(filepath.Dir(out), 0o755); err != nil {
		return 0, err
	}
	r, err := f.Open()
	if err != nil {
		return 0, fmt.Errorf("%s: %s: %v", zipPath, f.Name, err)
	}
	w, err := os.OpenFile(out, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		r.Close()
		return 0, err
	}
	n, err = io.Copy(w, io.LimitReader(r, limit+1))
	r.Close()
	if cerr := w.Close(); err == nil {
		err = cerr
	}
	if err == nil && n > limit {
		err = fmt.Errorf("larger than %d MiB", MaxExportBytes>>20)
	}
	if err != nil {
		if errors.Is(err, zip.ErrChecksum) || errors.Is(err, zip.ErrFormat) {
			return n, fmt.Errorf("%s: %s is damaged: %v", zipPath, f.Name, err)
		}
		return n, fmt.Errorf("%s: %s: %v", zipPath, f.Name, err)
	}
	return n, nil
}

// skillFolders lists the skill folders in dir (none when missing).
func skillFolders(dir string) ([]string, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, nil
		}
		return nil, err
	}
	var out []string
	for _, e := range entries {
		if e.IsDir() && !strings.HasPrefix(e.Name(), ".") {
			out = append(out, e.Name())
		}
	}
	return out, nil
}

// exportDraft sets c's draft: the exported bundle with c's id and only
// the tools that map (their policy and sampling entries go with the
// others), checked in the extracted copy renamed to c's id.
func (b *builder) exportDraft(ex *exportSource, c *Coworker) {
	d := ex.draft
	d.ID = c.ID
	d.Tools = slices.Clone(c.Tools)
	var whole []string
	for _, ns := range ex.draft.WholeProviders {
		if !slices.ContainsFunc(c.Unmapped, func(u Unmapped) bool { return u.Tool == ns }) {
			whole = append(whole, ns)
		}
	}
	d.WholeProviders = whole
	keepSelected(&d)
	c.draft = d
	dir := filepath.Join(filepath.Dir(ex.dir), c.ID)
	if dir != ex.dir {
		if err := os.Rename(ex.dir, dir); err != nil {
			b.problem("%s: %v", ex.zip, err)
			return
		}
		ex.dir = dir
	}
	for _, p := range bundle.Validate(dir, d) {
		b.problem("coworker %s (from %s) would not load: %s", c.ID, ex.zip, strings.Replace(p.Error(), filepath.Dir(dir)+string(filepath.Separator), "", 1))
	}
}

// keepSelected removes the policy entries and sampling providers that
// name no selected tool any more.
func keepSelected(d *bundle.Draft) {
	providers := map[string]bool{}
	for _, ns := range d.WholeProviders {
		providers[ns] = true
	}
	for _, t := range d.Tools {
		if ns, _, err := tool.SplitName(t); err == nil {
			providers[ns] = true
		}
	}
	for n := range d.Policy {
		if n == "*" || slices.Contains(d.Tools, n) {
			continue
		}
		if ns, _, err := tool.SplitName(n); err == nil && slices.Contains(d.WholeProviders, ns) {
			continue
		}
		delete(d.Policy, n)
	}
	d.Sampling = slices.DeleteFunc(d.Sampling, func(ns string) bool { return !providers[ns] })
}
