package main

import (
	"debug/pe"
	"encoding/json"
	"fmt"
	"os"

	"github.com/tc-hib/winres"
	"github.com/tc-hib/winres/version"
)

// checkExe opens path and fails unless it is a PE32+ (optional header magic
// 0x20b) image for x86-64 (machine 0x8664) whose subsystem is Windows GUI
// (IMAGE_SUBSYSTEM_WINDOWS_GUI = 2, what `-ldflags -H windowsgui` sets) and
// whose version resource says ProductVersion wantVersion. It returns a one
// line summary.
func checkExe(path, wantVersion string) (string, error) {
	f, err := pe.Open(path)
	if err != nil {
		return "", fmt.Errorf("%s: not a PE image: %w", path, err)
	}
	defer f.Close()
	if f.Machine != pe.IMAGE_FILE_MACHINE_AMD64 {
		return "", fmt.Errorf("%s: machine 0x%x, want 0x8664 (x86-64)", path, f.Machine)
	}
	oh, ok := f.OptionalHeader.(*pe.OptionalHeader64)
	if !ok || oh.Magic != 0x20b {
		return "", fmt.Errorf("%s: not PE32+ (64-bit optional header)", path)
	}
	if oh.Subsystem != pe.IMAGE_SUBSYSTEM_WINDOWS_GUI {
		return "", fmt.Errorf("%s: subsystem %d, want %d (Windows GUI); link with -ldflags -H windowsgui", path, oh.Subsystem, pe.IMAGE_SUBSYSTEM_WINDOWS_GUI)
	}
	strs, err := versionStrings(path)
	if err != nil {
		return "", err
	}
	if got := strs[version.ProductVersion]; got != wantVersion {
		return "", fmt.Errorf("%s: version resource ProductVersion = %q, want %q", path, got, wantVersion)
	}
	if strs[version.CompanyName] == "" {
		return "", fmt.Errorf("%s: version resource has no CompanyName", path)
	}
	return fmt.Sprintf("%s: PE32+ x86-64, subsystem %d (Windows GUI), %s %s by %s", path, oh.Subsystem,
		strs[version.ProductName], strs[version.ProductVersion], strs[version.CompanyName]), nil
}

// versionStrings reads the first VERSIONINFO resource of the exe at path
// and returns its string table (first language).
func versionStrings(path string) (map[string]string, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	rs, err := winres.LoadFromEXESingleType(f, winres.RT_VERSION)
	if err != nil {
		return nil, fmt.Errorf("%s: read resources: %w", path, err)
	}
	var raw []byte
	rs.WalkType(winres.RT_VERSION, func(_ winres.Identifier, _ uint16, data []byte) bool {
		raw = data
		return false
	})
	if raw == nil {
		return nil, fmt.Errorf("%s: no version resource (was the .syso from `winbuild resources` linked?)", path)
	}
	vi, err := version.FromBytes(raw)
	if err != nil {
		return nil, fmt.Errorf("%s: version resource: %w", path, err)
	}
	js, err := vi.MarshalJSON()
	if err != nil {
		return nil, err
	}
	var doc struct {
		Info map[string]map[string]string `json:"info"`
	}
	if err := json.Unmarshal(js, &doc); err != nil {
		return nil, err
	}
	for _, table := range doc.Info {
		return table, nil
	}
	return nil, fmt.Errorf("%s: version resource has no string table", path)
}
