package manifest

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

const valueFields = `
"dir": {"type": "directory", "title": "Folder", "description": "d", "required": true},
"dirs": {"type": "directory", "title": "Folders", "description": "d", "multiple": true, "default": ["${HOME}${/}a", "${DOCUMENTS}"]},
"db": {"type": "file", "title": "Database", "description": "d"},
"name": {"type": "string", "title": "Name", "description": "d", "default": "${DESKTOP}/x"},
"key": {"type": "string", "title": "Key", "description": "d", "sensitive": true, "required": true},
"n": {"type": "number", "title": "N", "description": "d", "min": 1, "max": 10},
"m": {"type": "number", "title": "M", "description": "d", "min": 0},
"on": {"type": "boolean", "title": "On", "description": "d", "default": true}`

func valuesManifest(t *testing.T) *Manifest {
	return mustParse(t, launchDoc(`{"command": "srv"}`, valueFields))
}

func TestDefaults(t *testing.T) {
	m := valuesManifest(t)
	got, err := m.Defaults(HostAt("windows", `C:\Users\Ann`))
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]any{
		"dirs": []string{`C:\Users\Ann\a`, `C:\Users\Ann\Documents`},
		"name": `C:\Users\Ann\Desktop/x`,
		"on":   true,
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("got  %#v\nwant %#v", got, want)
	}
	if keys := []string{m.UserConfig[0].Key, m.UserConfig[7].Key}; keys[0] != "dir" || keys[1] != "on" {
		t.Fatalf("user_config order: %v", keys)
	}
}

func TestCheckValues(t *testing.T) {
	tmp := t.TempDir()
	home := filepath.Join(tmp, "home")
	dir, file := filepath.Join(tmp, "d"), filepath.Join(tmp, "f.db")
	for _, d := range []string{home, dir, filepath.Join(home, "a"), filepath.Join(home, "Documents")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(file, []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	host := HostAt(hostGOOS(), home)
	m := valuesManifest(t)

	got, err := m.CheckValues(map[string]any{"dir": dir, "db": file, "key": "k", "n": json.Number("3"), "m": 0, "on": false}, host)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]any{
		"dir": dir, "db": file, "key": "k", "n": 3.0, "m": 0.0, "on": false,
		"dirs": []string{filepath.Join(home, "a"), filepath.Join(home, "Documents")},
		"name": host.Desktop + "/x",
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("got  %#v\nwant %#v", got, want)
	}

	cases := []struct {
		name   string
		values map[string]any
		want   []string
	}{
		{"required missing", map[string]any{"key": ""}, []string{
			"user_config.dir (Folder): a value is required (fill it in)",
			"user_config.key (Key): a value is required (fill it in)"}},
		{"unknown key", map[string]any{"dir": dir, "key": "k", "nope": 1}, []string{"user_config.nope: the manifest has no such field (remove it)"}},
		{"wrong types", map[string]any{"dir": 5, "key": true, "n": "3", "on": "yes", "dirs": map[string]any{}}, []string{
			"user_config.dir (Folder): must be a string, not a number",
			"user_config.dirs (Folders): must be a list of strings, not an object",
			"user_config.key (Key): must be a string, not a boolean",
			"user_config.n (N): must be a number, not a string (enter a number)",
			"user_config.on (On): must be true or false, not a string"}},
		{"out of range", map[string]any{"dir": dir, "key": "k", "n": 11, "m": -1.5}, []string{
			"user_config.n (N): 11 is above the maximum 10 (enter a number from 1 to 10)",
			"user_config.m (M): -1.5 is below the minimum 0 (enter 0 or more)"}},
		{"paths", map[string]any{"dir": file, "key": "k", "db": dir, "dirs": []any{"rel/dir", filepath.Join(tmp, "gone")}}, []string{
			"user_config.dir (Folder): " + file + " is not a folder (choose a folder)",
			`user_config.dirs (Folders): "rel/dir" is not an absolute path (choose the folder with the picker)`,
			"user_config.db (Database): " + dir + " is not a regular file (choose a file)"}},
		{"missing path", map[string]any{"dir": filepath.Join(tmp, "gone"), "key": "k"}, []string{
			"user_config.dir (Folder): " + filepath.Join(tmp, "gone") + " does not exist (choose an existing folder)"}},
		{"list items", map[string]any{"dir": dir, "key": "k", "dirs": []any{dir, 3}}, []string{"user_config.dirs (Folders): every item must be a string, not a number"}},
		{"empty item", map[string]any{"dir": dir, "key": "k", "dirs": []string{dir, ""}}, []string{"user_config.dirs (Folders): an item is empty (remove it or fill it in)"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := m.CheckValues(c.values, host)
			var ve *ValuesError
			if !errors.As(err, &ve) {
				t.Fatalf("want *ValuesError, got %v", err)
			}
			if len(ve.Problems) != len(c.want) {
				t.Fatalf("got %d problems:\n%v\nwant:\n%s", len(ve.Problems), err, strings.Join(c.want, "\n"))
			}
			for _, w := range c.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("missing %q in\n%v", w, err)
				}
			}
		})
	}
}

// A required multiple field: an empty list is missing, its default counts.
func TestCheckValuesRequiredList(t *testing.T) {
	d := t.TempDir()
	m := mustParse(t, launchDoc(`{"command": "srv"}`,
		`"dirs": {"type": "directory", "title": "Folders", "description": "d", "multiple": true, "required": true, "default": ["${HOME}"]}`))
	host := HostAt(hostGOOS(), d)
	got, err := m.CheckValues(nil, host)
	if err != nil || !reflect.DeepEqual(got["dirs"], []string{d}) {
		t.Fatalf("default: %v %v", got, err)
	}
	if _, err := m.CheckValues(map[string]any{"dirs": []string{}}, host); err == nil || !strings.Contains(err.Error(), "a value is required (choose at least one)") {
		t.Fatalf("empty list: %v", err)
	}
}
