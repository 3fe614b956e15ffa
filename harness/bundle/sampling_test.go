package bundle

import (
	"errors"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

const samplingTools = `{"version": 3, "tools": ["everything.trigger-sampling-request", "device.battery_get"]}`

// TestSamplingKey: "sampling" lists the providers allowed to ask the
// session's model; without it none is.
func TestSamplingKey(t *testing.T) {
	dir := writeBundle(t, "helper", map[string]string{
		"coworker/manifest.md": "---\nid: helper\nname: Helper\nsampling: [everything]\n---\nHelp.\n",
		"coworker/tools.json":  samplingTools,
	})
	b, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(b.Sampling, []string{"everything"}) || !b.AllowsSampling("everything") || b.AllowsSampling("device") {
		t.Errorf("Sampling = %q; want [everything] only", b.Sampling)
	}
	dir = writeBundle(t, "plain", map[string]string{
		"coworker/manifest.md": "---\nid: plain\nname: Plain\n---\nHelp.\n",
		"coworker/tools.json":  samplingTools,
	})
	if b, err = Load(dir); err != nil || b.Sampling != nil || b.AllowsSampling("everything") {
		t.Errorf("without the key: Sampling = %q, %v; want none", b.Sampling, err)
	}
}

// TestSamplingKeyErrors: each bad entry is named at its line and column.
func TestSamplingKeyErrors(t *testing.T) {
	tests := []struct {
		name, front string
		line, col   int
		frag        string
	}{
		{"unselected", "sampling: [everything, memory]", 4, 24, `sampling names provider "memory", but tools.json selects none of its tools; select a tool of that provider`},
		{"bad-ns", "sampling:\n  - \"ev ery\"", 5, 5, `sampling: "ev ery": namespace "ev ery" has ' '`},
		{"dup", "sampling: [device, everything, device]", 4, 32, `sampling lists "device" twice (first at line 4, column 12)`},
		{"not-a-list", "sampling: everything", 4, 11, "write a list: [a, b]"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := writeBundle(t, "helper", map[string]string{
				"coworker/manifest.md": "---\nid: helper\nname: Helper\n" + tc.front + "\n---\nHelp.\n",
				"coworker/tools.json":  samplingTools,
			})
			_, err := Load(dir)
			var le *LoadError
			if !errors.As(err, &le) {
				t.Fatalf("Load = %v; want a *LoadError", err)
			}
			if le.File != filepath.Join(dir, "coworker", "manifest.md") || le.Line != tc.line || le.Col != tc.col || !strings.Contains(le.Error(), tc.frag) {
				t.Errorf("Load = %q (%d:%d); want %d:%d containing %q", le, le.Line, le.Col, tc.line, tc.col, tc.frag)
			}
		})
	}
}
