package cli

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"

	"github.com/openworker/desktop/harness/extension/manifest"
)

// setValues turns --set KEY=VALUE into values by the manifest's fields,
// each checked by settingValue (docs/extensions.md#installing).
func setValues(m *manifest.Manifest, sets []string) (map[string]any, error) {
	values := map[string]any{}
	for _, kv := range sets {
		k, v, ok := strings.Cut(kv, "=")
		if !ok || k == "" {
			return nil, fmt.Errorf("--set %q: write KEY=VALUE, for example --set %s", kv, setExample(m))
		}
		f := m.Field(k)
		if f == nil {
			keys := make([]string, 0, len(m.UserConfig))
			for _, f := range m.UserConfig {
				keys = append(keys, f.Key)
			}
			return nil, fmt.Errorf("--set %s: the extension has no setting %q (its settings: %s)", k, k, strings.Join(keys, ", "))
		}
		if v == "" { // left out: its default, or "required"
			continue
		}
		if f.Multiple {
			item, err := settingItem(*f, v)
			if err != nil {
				return nil, err
			}
			list, _ := values[k].([]string)
			values[k] = append(list, item)
			continue
		}
		val, err := settingValue(*f, v)
		if err != nil {
			return nil, err
		}
		values[k] = val
	}
	return values, nil
}

// settingValue is text typed for f (after --set KEY= or at the prompt):
// a number or a boolean when f is one, an absolute path for a directory
// or file field (a relative one is taken from the current folder), a list
// split at commas for a multiple field. Text that does not fit is an
// error naming the setting, what it takes and an example --set.
func settingValue(f manifest.Field, v string) (any, error) {
	if f.Multiple {
		return orNil(settingList(f, v))
	}
	switch f.Type {
	case manifest.FieldNumber:
		return orNil(settingNumber(f, v))
	case manifest.FieldBoolean:
		b, err := strconv.ParseBool(strings.TrimSpace(v))
		if err != nil {
			return nil, settingErr(f, fmt.Sprintf("%q is not true or false", v))
		}
		return b, nil
	}
	return settingItem(f, v)
}

// orNil is v as a setting's value, or no value with err.
func orNil[T any](v T, err error) (any, error) {
	if err != nil {
		return nil, err
	}
	return v, nil
}

// settingList is the value of a multiple field: v split at commas, each
// item checked, the empty ones left out.
func settingList(f manifest.Field, v string) ([]string, error) {
	var out []string
	for _, s := range strings.Split(v, ",") {
		if s = strings.TrimSpace(s); s == "" {
			continue
		}
		item, err := settingItem(f, s)
		if err != nil {
			return nil, err
		}
		out = append(out, item)
	}
	return out, nil
}

// settingNumber is the value of a number field: finite and within the
// field's Min and Max.
func settingNumber(f manifest.Field, v string) (float64, error) {
	n, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
	if err != nil || n != n || n > 1e308 || n < -1e308 {
		return 0, settingErr(f, fmt.Sprintf("%q is not a number", v))
	}
	if f.Min != nil && n < *f.Min || f.Max != nil && n > *f.Max {
		return 0, settingErr(f, fmt.Sprintf("%v is out of range", n))
	}
	return n, nil
}

// settingItem checks one text, folder or file value.
func settingItem(f manifest.Field, v string) (string, error) {
	if f.Type != manifest.FieldDirectory && f.Type != manifest.FieldFile {
		return v, nil
	}
	p, err := filepath.Abs(v)
	if err != nil {
		return "", settingErr(f, fmt.Sprintf("%q: %v", v, err))
	}
	fi, err := os.Stat(p)
	switch {
	case err != nil:
		return "", settingErr(f, fmt.Sprintf("%s does not exist", p))
	case f.Type == manifest.FieldDirectory && !fi.IsDir():
		return "", settingErr(f, fmt.Sprintf("%s is not a folder", p))
	case f.Type == manifest.FieldFile && !fi.Mode().IsRegular():
		return "", settingErr(f, fmt.Sprintf("%s is not a regular file", p))
	}
	return p, nil
}

// settingErr reads `the setting KEY (TITLE): WHAT; it takes WANT, for
// example --set KEY=EXAMPLE`.
func settingErr(f manifest.Field, what string) error {
	name := f.Key
	if f.Title != "" {
		name += " (" + f.Title + ")"
	}
	want, example := settingWants(f)
	more := ""
	if f.Multiple {
		more = fmt.Sprintf(" (repeat --set %s=… for each)", f.Key)
	}
	return fmt.Errorf("the setting %s: %s; it takes %s, for example --set %s=%s%s", name, what, want, f.Key, example, more)
}

// settingWants says what f takes and gives an example value.
func settingWants(f manifest.Field) (want, example string) {
	home := "/home/ada"
	if runtime.GOOS == "windows" {
		home = `C:\Users\ada`
	}
	switch f.Type {
	case manifest.FieldNumber:
		ex := 1.0
		switch d, isNum := f.Default.(float64); {
		case isNum:
			ex = d
		case f.Min != nil:
			ex = *f.Min
		case f.Max != nil:
			ex = *f.Max
		}
		want = "a number"
		switch {
		case f.Min != nil && f.Max != nil:
			want += fmt.Sprintf(" from %v to %v", *f.Min, *f.Max)
		case f.Min != nil:
			want += fmt.Sprintf(" of %v or more", *f.Min)
		case f.Max != nil:
			want += fmt.Sprintf(" of %v or less", *f.Max)
		}
		return want, strconv.FormatFloat(ex, 'f', -1, 64)
	case manifest.FieldBoolean:
		return "true or false", "true"
	case manifest.FieldDirectory:
		return "the path of an existing folder", filepath.Join(home, "Documents")
	case manifest.FieldFile:
		return "the path of an existing file", filepath.Join(home, "notes.txt")
	}
	return "text", "TEXT"
}

// setExample is an example --set for m's first setting.
func setExample(m *manifest.Manifest) string {
	if len(m.UserConfig) == 0 {
		return "KEY=VALUE"
	}
	_, ex := settingWants(m.UserConfig[0])
	return m.UserConfig[0].Key + "=" + ex
}
