package manifest

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
)

// Defaults returns the user_config defaults with ${HOME}, ${DESKTOP},
// ${DOCUMENTS}, ${DOWNLOADS}, ${/} and ${pathSeparator} replaced for host,
// by key; a field without a default is absent. Values have CheckValues'
// shapes (string, float64, bool, []string). The error names the field.
func (m *Manifest) Defaults(host Host) (map[string]any, error) {
	out := map[string]any{}
	for _, f := range m.UserConfig {
		if f.Default == nil {
			continue
		}
		v, err := defaultValue(f, host)
		if err != nil {
			return nil, err
		}
		out[f.Key] = v
	}
	return out, nil
}

func defaultValue(f Field, host Host) (any, error) {
	look := hostLookup(host, "", nil)
	switch d := f.Default.(type) {
	case string:
		s, err := expandString(d, look, listSeparator(host.goos()))
		if err != nil {
			return nil, fmt.Errorf("%s: default: %w", fieldName(f), err)
		}
		if f.Multiple {
			return []string{s}, nil
		}
		return s, nil
	case []string:
		out := make([]string, len(d))
		for i, s := range d {
			e, err := expandString(s, look, listSeparator(host.goos()))
			if err != nil {
				return nil, fmt.Errorf("%s: default: %w", fieldName(f), err)
			}
			out[i] = e
		}
		return out, nil
	}
	return f.Default, nil
}

func fieldName(f Field) string {
	if f.Title != "" {
		return fmt.Sprintf("user_config.%s (%s)", f.Key, f.Title)
	}
	return "user_config." + f.Key
}

// CheckValues checks values, what the person entered in the user_config
// form (by key: a string, a number (float64, int or json.Number), a bool,
// or for a multiple field a []string or []any of strings), against the
// fields, and returns the complete values: entered ones, and the default
// (see Defaults) of each field left out, nil or "". It refuses, all at
// once in a *ValuesError: a key that is no field, a missing required
// value (an empty list or an empty item counts as missing), a wrong type,
// a number outside min/max or not finite, and for directory and file
// fields a path that is not absolute, does not exist, or is not a folder
// (directory) or a regular file (file). Values are never substituted.
func (m *Manifest) CheckValues(values map[string]any, host Host) (map[string]any, error) {
	var problems []string
	keys := make([]string, 0, len(values))
	for k := range values {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		if m.Field(k) == nil {
			problems = append(problems, fmt.Sprintf("user_config.%s: the manifest has no such field (remove it)", k))
		}
	}
	out := map[string]any{}
	for _, f := range m.UserConfig {
		v, given := values[f.Key]
		if !given || v == nil || v == "" {
			if f.Default == nil {
				if f.Required {
					problems = append(problems, fieldName(f)+": a value is required (fill it in)")
				}
				continue
			}
			d, err := defaultValue(f, host)
			if err != nil {
				problems = append(problems, err.Error())
				continue
			}
			v = d
		}
		norm, msg := checkValue(f, v)
		if msg != "" {
			problems = append(problems, fieldName(f)+": "+msg)
			continue
		}
		out[f.Key] = norm
	}
	if len(problems) > 0 {
		return nil, &ValuesError{Problems: problems}
	}
	return out, nil
}

// checkValue returns v in its normal shape, or what is wrong with it.
func checkValue(f Field, v any) (any, string) {
	switch f.Type {
	case FieldNumber:
		n, ok := number(v)
		if !ok {
			return nil, fmt.Sprintf("must be a number, not %s (enter a number)", typeName(v))
		}
		if msg := outOfRange(n, f); msg != "" {
			return nil, msg + " (" + rangeFix(f) + ")"
		}
		return n, ""
	case FieldBoolean:
		b, ok := v.(bool)
		if !ok {
			return nil, fmt.Sprintf("must be true or false, not %s", typeName(v))
		}
		return b, ""
	}
	items, msg := textItems(f, v)
	if msg != "" {
		return nil, msg
	}
	for _, s := range items {
		if s == "" {
			return nil, "an item is empty (remove it or fill it in)"
		}
		if msg := checkPath(f.Type, s); msg != "" {
			return nil, msg
		}
	}
	if f.Multiple {
		return slices.Clone(items), ""
	}
	return items[0], ""
}

// textItems is the strings of a text, directory or file value: one for a
// single field, the list (or a lone string) for a multiple one; or what is
// wrong with its shape.
func textItems(f Field, v any) ([]string, string) {
	if !f.Multiple {
		s, ok := v.(string)
		if !ok {
			return nil, fmt.Sprintf("must be a string, not %s", typeName(v))
		}
		return []string{s}, ""
	}
	var items []string
	switch l := v.(type) {
	case string:
		items = []string{l}
	case []string:
		items = l
	case []any:
		for _, it := range l {
			s, ok := it.(string)
			if !ok {
				return nil, fmt.Sprintf("every item must be a string, not %s", typeName(it))
			}
			items = append(items, s)
		}
	default:
		return nil, fmt.Sprintf("must be a list of strings, not %s", typeName(v))
	}
	if len(items) == 0 && f.Required {
		return nil, "a value is required (choose at least one)"
	}
	return items, ""
}

func rangeFix(f Field) string {
	switch {
	case f.Min != nil && f.Max != nil:
		return fmt.Sprintf("enter a number from %v to %v", *f.Min, *f.Max)
	case f.Min != nil:
		return fmt.Sprintf("enter %v or more", *f.Min)
	case f.Max != nil:
		return fmt.Sprintf("enter %v or less", *f.Max)
	}
	return "enter a finite number"
}

// checkPath checks a directory or file value on this computer.
func checkPath(typ, p string) string {
	if typ != FieldDirectory && typ != FieldFile {
		return ""
	}
	what := "folder"
	if typ == FieldFile {
		what = "file"
	}
	if !filepath.IsAbs(p) {
		return fmt.Sprintf("%q is not an absolute path (choose the %s with the picker)", p, what)
	}
	fi, err := os.Stat(p)
	switch {
	case err != nil:
		return fmt.Sprintf("%s does not exist (choose an existing %s)", p, what)
	case typ == FieldDirectory && !fi.IsDir():
		return fmt.Sprintf("%s is not a folder (choose a folder)", p)
	case typ == FieldFile && !fi.Mode().IsRegular():
		return fmt.Sprintf("%s is not a regular file (choose a file)", p)
	}
	return ""
}

func number(v any) (float64, bool) {
	switch n := v.(type) {
	case float64:
		return n, true
	case float32:
		return float64(n), true
	case int:
		return float64(n), true
	case int64:
		return float64(n), true
	case json.Number:
		f, err := n.Float64()
		return f, err == nil
	}
	return 0, false
}

func typeName(v any) string {
	switch v.(type) {
	case string:
		return "a string"
	case bool:
		return "a boolean"
	case float64, float32, int, int64, json.Number:
		return "a number"
	case []any, []string:
		return "a list"
	case map[string]any:
		return "an object"
	case nil:
		return "null"
	}
	return fmt.Sprintf("%T", v)
}

// valueText is a value as it is substituted: numbers as JavaScript's
// String() writes them for ordinary values (10, 1.5), booleans as
// "true"/"false".
func valueText(v any) (text string, items []string, isList bool) {
	switch x := v.(type) {
	case string:
		return x, nil, false
	case bool:
		return strconv.FormatBool(x), nil, false
	case float64:
		if x == math.Trunc(x) && math.Abs(x) < 1e21 {
			return strconv.FormatFloat(x, 'f', -1, 64), nil, false
		}
		return strconv.FormatFloat(x, 'g', -1, 64), nil, false
	case []string:
		return "", x, true
	}
	return fmt.Sprint(v), nil, false
}

// Accepts reports whether v is a value of f's type and bounds (a number in
// min/max, a list only for multiple; paths are checked for shape, not for
// existence). An upgrade keeps an installed value only when the new
// version's field accepts it (docs/extensions.md#installing).
func (f Field) Accepts(v any) bool {
	_, msg := checkValue(f, v)
	return msg == ""
}
