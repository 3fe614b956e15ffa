package extension

import (
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"time"

	"github.com/Masterminds/semver/v3"

	"github.com/openworker/desktop/harness/extension/archive"
	"github.com/openworker/desktop/harness/extension/manifest"
	"github.com/openworker/desktop/harness/tool"
)

// Inspection is an .mcpb file opened and checked, before anything is
// written: what the install dialog and `openworker extension install`
// show (docs/extensions.md#installing). Install takes it.
type Inspection struct {
	// Path is the file as given.
	Path string
	// Manifest is its manifest.json, parsed and validated.
	Manifest *manifest.Manifest
	// Signature is the signature block's status and signer.
	Signature archive.Signature
	// Namespace is the provider namespace it gets: the one it already has
	// when Installed is set, else a free one (Namespace).
	Namespace string
	// Installed is the record of the version installed now, when this
	// is an upgrade (or a reinstall); its values are kept.
	Installed *Record
	// Older is set when Installed is a newer version than the file's (a
	// downgrade, by semantic version order): Install still installs it,
	// and Warnings says so first (docs/extensions.md#installing).
	Older bool
	// Runtime is what the server needs (node, python, uv; Name "" for a
	// binary server), and Runtimes the versions found on the search PATH.
	Runtime  manifest.Runtime
	Runtimes map[string]string
	// Blocking are the reasons it cannot be installed here (another
	// platform, an invalid signature); Warnings what it needs that is
	// missing (a runtime), shown but not in the way.
	Blocking []string
	Warnings []string
	// Command, Args and Env are what starts the server on this platform
	// before substitution (manifest.CommandLine): shown before installing,
	// with a warning when the command is a program outside the bundle
	// (manifest.RunsOutside).
	Command string
	Args    []string
	Env     map[string]string
	// Files and Bytes count the archive's entries and their declared size.
	Files int
	Bytes int64

	arc *archive.Archive
}

// preloadVars are the environment variables that make the dynamic loader
// inject code into any program (Linux, macOS): set by an extension, they
// are a warning before installing.
var preloadVars = map[string]bool{"LD_PRELOAD": true, "LD_AUDIT": true, "LD_LIBRARY_PATH": true, "DYLD_INSERT_LIBRARIES": true, "DYLD_LIBRARY_PATH": true, "DYLD_FRAMEWORK_PATH": true}

// InspectOptions are the host facts Inspect checks against.
type InspectOptions struct {
	// GOOS is the platform ("" is this one).
	GOOS string
	// Runtimes are the runtime versions found (FindRuntimes); nil skips
	// the runtime checks.
	Runtimes map[string]string
	// Taken says whether a namespace is another provider's (native tools,
	// servers.json entries); other extensions' are added by Inspect.
	Taken func(ns string) bool
	// Namespace, when not "", is the namespace to give a first install
	// instead of the derived one (`extension install --namespace`); it
	// must be a free, valid namespace, and an installed extension keeps
	// the one it has (docs/extensions.md#namespace).
	Namespace string
}

// Inspect opens the .mcpb (or .dxt) file at path, parses and validates
// its manifest, checks its signature and its platform, and picks its
// namespace. Nothing is written. Errors: the archive's (*archive.Error:
// unreadable, unsafe entries, too large), the manifest's
// (*manifest.Error, each problem at manifest.json:LINE:COL with the fix).
func (s *Store) Inspect(path string, o InspectOptions) (*Inspection, error) {
	arc, m, err := openArchive(path)
	if err != nil {
		return nil, err
	}
	in := &Inspection{Path: path, Manifest: m, Signature: arc.Signature(), arc: arc, Runtime: m.Runtime(o.GOOS), Runtimes: o.Runtimes}
	for _, e := range arc.Entries() {
		in.Files++
		in.Bytes += e.Size
	}
	if err := s.findInstalled(in); err != nil {
		return nil, err
	}
	if err := s.pickNamespace(in, o); err != nil {
		return nil, err
	}
	in.Command, in.Args, in.Env = m.CommandLine(o.GOOS)
	in.Warnings = in.warnings(o.GOOS)
	in.Blocking, in.Warnings = in.hostProblems(o, in.Warnings)
	return in, nil
}

// openArchive opens the .mcpb file at path and parses its manifest, whose
// name and version must make folder names.
func openArchive(path string) (*archive.Archive, *manifest.Manifest, error) {
	arc, err := archive.Open(path)
	if err != nil {
		return nil, nil, err
	}
	raw, err := arc.Manifest()
	if err != nil {
		return nil, nil, err
	}
	m, err := manifest.Parse(raw, filepath.Base(path)+"!/"+archive.ManifestName)
	if err != nil {
		return nil, nil, err
	}
	if err := checkName(m.Name); err != nil {
		return nil, nil, fmt.Errorf("%s: %w", path, err)
	}
	if err := checkName(m.Version); err != nil {
		return nil, nil, fmt.Errorf("%s: version: %w", path, err)
	}
	return arc, m, nil
}

// findInstalled fills in.Installed and its namespace when a version of
// the extension is installed; one whose name differs only in case or
// Unicode form is an error.
func (s *Store) findInstalled(in *Inspection) error {
	m := in.Manifest
	if other := s.sameNameAs(m.Name); other != "" {
		return fmt.Errorf("%s: an extension named %q is installed, and %q differs from it only in case or Unicode form, which macOS and Windows folders do not tell apart; remove %q first or ask the author to rename", in.Path, other, m.Name, other)
	}
	r, err := s.Get(m.Name)
	switch {
	case err == nil:
		in.Installed, in.Namespace = &r, r.Namespace
	case !errors.As(err, new(*NotInstalledError)):
		return err
	}
	return nil
}

// pickNamespace gives a first install its namespace: the one o asks for,
// when valid and free, else a free one derived from the name
// (Namespace). An installed extension keeps its own, and asking for
// another is an error.
func (s *Store) pickNamespace(in *Inspection, o InspectOptions) error {
	if in.Installed != nil && o.Namespace != "" && o.Namespace != in.Namespace {
		return fmt.Errorf("%s: %s is installed with the namespace %s, which it keeps; remove it first to install it as %s", in.Path, in.Manifest.Name, in.Namespace, o.Namespace)
	}
	if in.Namespace != "" {
		return nil
	}
	others, _ := s.List()
	taken := func(ns string) bool {
		for _, r := range others {
			if r.Namespace == ns {
				return true
			}
		}
		return o.Taken != nil && o.Taken(ns)
	}
	if o.Namespace == "" {
		var err error
		if in.Namespace, err = Namespace(in.Manifest.Name, taken); err != nil {
			return fmt.Errorf("%s: %w", in.Path, err)
		}
		return nil
	}
	if err := tool.CheckNamespace(o.Namespace); err != nil {
		return &NamespaceError{Asked: o.Namespace, Err: err}
	}
	if taken(o.Namespace) {
		return &NamespaceError{Asked: o.Namespace, Err: fmt.Errorf("%s is another provider's (an extension, a servers file entry or a native tool); choose another", o.Namespace)}
	}
	in.Namespace = o.Namespace
	return nil
}

// warnings are what in's file does that its person should know before
// installing: a downgrade, a program outside its folder, variables that
// load other code, installed settings this version does not take.
func (in *Inspection) warnings(goos string) []string {
	m := in.Manifest
	var ws []string
	if in.Installed != nil && older(m.Version, in.Installed.Version) {
		in.Older = true
		ws = append(ws, fmt.Sprintf("this is version %s, older than the installed %s: installing it replaces the newer version (its settings are kept)", m.Version, in.Installed.Version))
	}
	if m.RunsOutside(goos) {
		ws = append(ws, fmt.Sprintf("it runs %q, a program outside its own folder: it can do whatever your account can; install it only if you trust its author", in.Command))
	}
	for _, k := range slices.Sorted(maps.Keys(in.Env)) {
		if preloadVars[strings.ToUpper(k)] {
			ws = append(ws, fmt.Sprintf("it sets %s, which makes the system load other code into the program it runs", k))
		}
	}
	if in.Installed == nil {
		return ws
	}
	for _, f := range m.UserConfig {
		if v, ok := in.Installed.Values[f.Key]; ok && !f.Sensitive && !f.Accepts(v) {
			ws = append(ws, fmt.Sprintf("the setting %s of the installed version, %v, is no %s value of this version: it is not kept; give it again", f.Key, v, f.Type))
		}
	}
	return ws
}

// hostProblems adds to warnings what this host lacks (a runtime, when
// o has the runtimes found) and returns what blocks the install here: an
// invalid signature, another platform.
func (in *Inspection) hostProblems(o InspectOptions, warnings []string) (blocking, _ []string) {
	m := in.Manifest
	if in.Signature.Status == archive.Invalid {
		blocking = append(blocking, fmt.Sprintf("its signature does not verify (%s): the file was changed after it was signed, or the signature is damaged; get the file again from its author", in.Signature.Problem))
	}
	platform := m.Problems(manifest.Env{GOOS: o.GOOS}) // without Runtimes and Dir: the platform only
	blocking = append(blocking, platform...)
	if o.Runtimes != nil { // the same checks plus the runtime, whose problems come after the platform's
		warnings = append(warnings, m.Problems(manifest.Env{GOOS: o.GOOS, Runtimes: o.Runtimes})[len(platform):]...)
	}
	return blocking, warnings
}

// Install unpacks in's archive into extensions/<name>/<version>/ and
// records it (docs/extensions.md#installing). values are the user_config
// values the person entered (checked with manifest.CheckValues: defaults
// filled, types, required, paths); sensitive ones go to the SecretStore,
// the rest to installed.json. On an upgrade, values left out keep the
// installed ones. The new version replaces the record only after it is
// unpacked and its entry point checked; the old version's folder stays
// until the next Store.Prune (its running sessions keep their files). A
// binary server's entry point is made executable on macOS and Linux
// (execEntryPoint). An older version than the installed one installs too
// (Inspection.Older says so before).
// Installing grants no approval: every call asks as usual. On any error
// nothing new is left behind and the installed version is unchanged.
func (s *Store) Install(in *Inspection, values map[string]any, host manifest.Host) (Record, error) {
	m := in.Manifest
	if len(in.Blocking) > 0 {
		return Record{}, fmt.Errorf("%s cannot be installed: %s", in.Path, in.Blocking[0])
	}
	values, err := s.mergeValues(in, values)
	if err != nil {
		return Record{}, err
	}
	full, err := m.CheckValues(values, host)
	if err != nil {
		return Record{}, fmt.Errorf("%s: %w", in.Path, err)
	}
	rec, secrets, err := in.record(full)
	if err != nil {
		return Record{}, err
	}
	unlock, err := s.lock() // another install or remove of this folder waits
	if err != nil {
		return Record{}, err
	}
	defer unlock()
	dir := filepath.Join(s.Dir, m.Name)
	_, statErr := os.Stat(dir)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return Record{}, fmt.Errorf("create the extension folder: %w", err)
	}
	if errors.Is(statErr, fs.ErrNotExist) { // made here: gone again if the install fails
		defer func() {
			if _, err := os.Stat(filepath.Join(dir, RecordFile)); err != nil {
				os.RemoveAll(dir)
			}
		}()
	}
	stage := filepath.Join(dir, fmt.Sprintf(".staging-%s-%d", m.Version, time.Now().UnixNano()))
	defer os.RemoveAll(stage) // gone after the rename
	if err := in.unpack(stage, host); err != nil {
		return Record{}, err
	}
	return s.place(in, rec, secrets, stage)
}

// record is the record in installs with the user_config values full
// (checked, defaults filled), and the sensitive values, which go to the
// SecretStore instead. An upgrade keeps the person's sandbox choice.
func (in *Inspection) record(full map[string]any) (Record, map[string]string, error) {
	m := in.Manifest
	source, err := filepath.Abs(in.Path)
	if err != nil {
		return Record{}, nil, fmt.Errorf("%s: %w", in.Path, err)
	}
	rec := Record{Name: m.Name, Version: m.Version, Namespace: in.Namespace, DisplayName: m.Title(), InstalledAt: time.Now().UTC(),
		Signature: string(in.Signature.Status), Signer: in.Signature.Subject, Source: source, Values: map[string]any{}}
	if in.Installed != nil {
		rec.Sandbox = in.Installed.Sandbox
	}
	secrets := map[string]string{}
	for _, f := range m.UserConfig {
		v, ok := full[f.Key]
		switch {
		case !ok:
		case !f.Sensitive:
			rec.Values[f.Key] = v
		default:
			text, isText := v.(string)
			if !isText {
				return Record{}, nil, fmt.Errorf("%s: user_config.%s is sensitive but not a string; its author must make it a string field", in.Path, f.Key)
			}
			secrets[f.Key] = text
			rec.Sensitive = append(rec.Sensitive, f.Key)
		}
	}
	return rec, secrets, nil
}

// unpack unpacks in's archive into the folder stage and checks what a
// server needs there: its entry point, executable.
func (in *Inspection) unpack(stage string, host manifest.Host) error {
	if err := in.arc.Unpack(stage); err != nil {
		return err
	}
	if err := execEntryPoint(in.Manifest, stage); err != nil {
		return fmt.Errorf("%s: %w", in.Path, err)
	}
	if ps := in.Manifest.Problems(manifest.Env{GOOS: host.GOOS, Dir: stage}); len(ps) > 0 {
		return fmt.Errorf("%s cannot be installed: %s", in.Path, ps[len(ps)-1])
	}
	return nil
}

// place moves the unpacked stage into the version folder (a reinstall of
// the same version replaces it), stores secrets and saves rec: all of it,
// or, on any error, none (the folder, the secrets and the record as they
// were). A sensitive key the new version no longer has is deleted.
func (s *Store) place(in *Inspection, rec Record, secrets map[string]string, stage string) (Record, error) {
	dir := filepath.Join(s.Dir, rec.Name)
	dest := filepath.Join(dir, rec.Version)
	prev, err := s.secretsNow(rec.Name, secrets) // read before anything moves
	if err != nil {
		return Record{}, err
	}
	old := ""
	if _, err := os.Stat(dest); err == nil {
		old = filepath.Join(dir, ".replaced-"+rec.Version+"-"+fmt.Sprint(time.Now().UnixNano()))
		if err := os.Rename(dest, old); err != nil {
			return Record{}, fmt.Errorf("replace %s: %w; quit the chats that use it and install again", dest, err)
		}
	} else if !errors.Is(err, fs.ErrNotExist) {
		return Record{}, err
	}
	restore := func(placed bool) {
		if placed { // never a folder this install did not put there
			os.RemoveAll(dest)
		}
		if old != "" {
			os.Rename(old, dest)
		}
		s.putSecrets(rec.Name, secrets, prev)
	}
	if err := os.Rename(stage, dest); err != nil {
		restore(false)
		return Record{}, fmt.Errorf("install into %s: %w", dest, err)
	}
	for k, v := range secrets {
		if err := s.secrets().Set(rec.Name, k, v); err != nil {
			restore(true)
			return Record{}, err
		}
	}
	if err := s.save(rec); err != nil {
		restore(true)
		return Record{}, err
	}
	if in.Installed != nil { // a sensitive key the new version no longer has
		for _, k := range in.Installed.Sensitive {
			if _, kept := secrets[k]; !kept {
				_ = s.secrets().Delete(rec.Name, k)
			}
		}
	}
	if old != "" {
		os.RemoveAll(old)
	}
	rec.Dir = dest
	return rec, nil
}

// secretsNow reads the stored values of the keys of secrets of extension
// name ("" for none), to put back if the install fails (putSecrets).
func (s *Store) secretsNow(name string, secrets map[string]string) (map[string]string, error) {
	prev := map[string]string{}
	for k := range secrets {
		v, err := s.secrets().Get(name, k)
		if err != nil {
			return nil, err
		}
		prev[k] = v
	}
	return prev, nil
}

// putSecrets puts the keys of secrets back as prev has them (deleting
// those that had no value), best effort.
func (s *Store) putSecrets(name string, secrets, prev map[string]string) {
	for k := range secrets {
		if v, ok := prev[k]; ok && v != "" {
			_ = s.secrets().Set(name, k, v)
		} else {
			_ = s.secrets().Delete(name, k)
		}
	}
}

// execEntryPoint gives a binary server's entry point in dir its executable
// bits on macOS and Linux when the archive lost them (a bundle zipped on
// Windows or by a tool that keeps no Unix modes): the mode becomes 0o755.
// Only the entry point is changed; a missing one is left to
// manifest.Problems (docs/extensions.md#installing).
func execEntryPoint(m *manifest.Manifest, dir string) error {
	if runtime.GOOS == "windows" || m.Server.Type != manifest.TypeBinary || m.Server.EntryPoint == "" {
		return nil
	}
	p := filepath.Join(dir, filepath.FromSlash(m.Server.EntryPoint))
	fi, err := os.Lstat(p)
	if err != nil || !fi.Mode().IsRegular() || fi.Mode().Perm()&0o111 == 0o111 {
		return nil
	}
	if err := os.Chmod(p, 0o755); err != nil {
		return fmt.Errorf("make the entry point %s executable: %w", m.Server.EntryPoint, err)
	}
	return nil
}

// older reports whether version a comes before b in semantic version
// order (both are checked semantic versions of manifests; one that does
// not parse is never older).
func older(a, b string) bool {
	va, errA := semver.NewVersion(a)
	vb, errB := semver.NewVersion(b)
	return errA == nil && errB == nil && va.LessThan(vb)
}

// mergeValues adds, on an upgrade, the installed values of the fields the
// person left out (sensitive ones from the SecretStore).
func (s *Store) mergeValues(in *Inspection, values map[string]any) (map[string]any, error) {
	out := map[string]any{}
	if in.Installed != nil {
		for _, f := range in.Manifest.UserConfig {
			if v, ok := in.Installed.Values[f.Key]; ok && !f.Sensitive && f.Accepts(v) {
				out[f.Key] = v
			}
		}
		for _, k := range in.Installed.Sensitive {
			if f := in.Manifest.Field(k); f != nil && f.Sensitive {
				v, err := s.secrets().Get(in.Manifest.Name, k)
				if err != nil {
					return nil, err
				}
				if v != "" {
					out[k] = v
				}
			}
		}
	}
	for k, v := range values {
		out[k] = v
	}
	return out, nil
}

// Prune removes the folders of versions other than the installed one of
// every extension, and staging folders an interrupted install left. Call
// it when no session runs from them (at the app's start, before any
// session opens). It returns the folders it could not remove.
func (s *Store) Prune() []error {
	if _, err := os.Stat(s.Dir); errors.Is(err, fs.ErrNotExist) {
		return nil // nothing installed: no folder made
	}
	unlock, err := s.lock() // not while an install stages its folder
	if err != nil {
		return []error{err}
	}
	defer unlock()
	recs, _ := s.List()
	var errs []error
	for _, r := range recs {
		ents, err := os.ReadDir(filepath.Join(s.Dir, r.Name))
		if err != nil {
			continue
		}
		for _, e := range ents {
			if !e.IsDir() || e.Name() == r.Version {
				continue
			}
			if err := os.RemoveAll(filepath.Join(s.Dir, r.Name, e.Name())); err != nil {
				errs = append(errs, err)
			}
		}
	}
	return errs
}

// RuntimeFits reports whether the runtime the server needs was found in
// the version range it asks for (true for a binary server, which needs
// none; false when Inspect was given no Runtimes): checking the runtime
// adds no problem to the platform's (manifest.Problems).
func (in *Inspection) RuntimeFits() bool {
	if in.Runtime.Name == "" {
		return true
	}
	if _, found := in.Runtimes[in.Runtime.Name]; !found {
		return false
	}
	m := in.Manifest
	return len(m.Problems(manifest.Env{Runtimes: in.Runtimes})) == len(m.Problems(manifest.Env{}))
}
