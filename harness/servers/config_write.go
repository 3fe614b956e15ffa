package servers

import (
	"bytes"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strconv"

	"github.com/openworker/desktop/harness/internal/atomicfile"
	"github.com/openworker/desktop/harness/tool"
)

// MarshalServersFile writes entries (from ReadConfig, of any format) in
// the product's servers.json form (docs/servers.md#writing): each under
// its namespace, with "transport", its values as written (a literal "$"
// doubled to "$$", environment variables as ${VAR} or ${VAR:-default},
// inputs as ${input:ID} with their "inputs" definitions, predefined
// folders such as ${userHome} as the folder), "timeout" in seconds and
// "disabled". No value substituted from the environment or an input is
// ever written. An entry whose text could not be read (raw form missing)
// is an error naming it; an entry whose only problem is a variable or an
// input without a value is written, reference and all.
func MarshalServersFile(entries []ConfigEntry) ([]byte, error) {
	var inputs []any
	inputSeen := map[string]ConfigInput{}
	servers := ordered{}
	nsSeen := map[string]string{}
	for _, e := range entries {
		ns := e.Server.Namespace
		if e.raw == nil || ns == "" {
			why := "it was not read"
			if e.Err != nil {
				why = e.Err.Error()
			}
			return nil, fmt.Errorf("server %q (line %d) cannot be written: %s", e.Name, e.Line, why)
		}
		if err := tool.CheckNamespace(ns); err != nil {
			return nil, fmt.Errorf("server %q: %w", e.Name, err)
		}
		if prev, dup := nsSeen[ns]; dup {
			return nil, fmt.Errorf("servers %q and %q both have the namespace %q; write only one of them", prev, e.Name, ns)
		}
		nsSeen[ns] = e.Name
		obj, err := e.raw.product()
		if err != nil {
			return nil, fmt.Errorf("server %q (line %d) cannot be written: %v", e.Name, e.Line, err)
		}
		if e.Disabled {
			obj = append(obj, field{"disabled", true})
		}
		servers = append(servers, field{ns, obj})
		for _, in := range e.raw.inputs {
			if prev, ok := inputSeen[in.ID]; ok {
				if prev != in {
					return nil, fmt.Errorf("input %q is defined twice, differently; give one of them another id", in.ID)
				}
				continue
			}
			inputSeen[in.ID] = in
			def := ordered{{"type", "promptString"}, {"id", in.ID}, {"description", in.Description}}
			if in.Password {
				def = append(def, field{"password", true})
			}
			inputs = append(inputs, def)
		}
	}
	doc := ordered{}
	if len(inputs) > 0 {
		doc = append(doc, field{"inputs", inputs})
	}
	doc = append(doc, field{"servers", servers})
	raw, err := doc.MarshalJSON()
	if err != nil {
		return nil, err
	}
	var out bytes.Buffer
	if err := json.Indent(&out, raw, "", "  "); err != nil {
		return nil, err
	}
	out.WriteByte('\n')
	return out.Bytes(), nil
}

// WriteServersFile writes MarshalServersFile(entries) to path, replacing
// it in one step (a temporary file in the same folder, then a rename), so
// a reader never sees half a file and a failure leaves the old file as it
// was. The file is readable by its owner only (0600): values written
// literally may be credentials.
func WriteServersFile(path string, entries []ConfigEntry) error {
	data, err := MarshalServersFile(entries)
	if err != nil {
		return err
	}
	return atomicfile.WriteFile(path, data, 0o600)
}

// product is the entry as a servers.json object.
func (raw *rawEntry) product() (ordered, error) {
	text := func(tv tval) (string, error) { return raw.x.productText(tv.t) }
	pairs := func(list []kv) (ordered, error) {
		out := ordered{}
		for _, p := range list {
			v, err := text(p.v)
			if err != nil {
				return nil, err
			}
			out = append(out, field{p.key, v})
		}
		return out, nil
	}
	obj := ordered{{"transport", raw.transport}}
	if raw.transport == tool.TransportStdio {
		cmd, err := text(raw.command)
		if err != nil {
			return nil, err
		}
		obj = append(obj, field{"command", cmd})
		if len(raw.args) > 0 {
			args := make([]any, 0, len(raw.args))
			for _, a := range raw.args {
				v, err := text(a)
				if err != nil {
					return nil, err
				}
				args = append(args, v)
			}
			obj = append(obj, field{"args", args})
		}
		if len(raw.env) > 0 {
			env, err := pairs(raw.env)
			if err != nil {
				return nil, err
			}
			obj = append(obj, field{"env", env})
		}
		if raw.cwd != nil {
			cwd, err := text(*raw.cwd)
			if err != nil {
				return nil, err
			}
			// A literal relative folder resolved against the file it came
			// from; written absolute, it means the same from anywhere.
			if lit, ok := raw.cwd.t.literalOnly(); ok && lit != "" && !filepath.IsAbs(lit) {
				cwd, _ = raw.x.productText(template{{kind: partLit, text: filepath.Join(raw.cwdBase, lit)}})
			}
			obj = append(obj, field{"cwd", cwd})
		}
	} else {
		u, err := text(raw.url)
		if err != nil {
			return nil, err
		}
		obj = append(obj, field{"url", u})
		if len(raw.headers) > 0 {
			h, err := pairs(raw.headers)
			if err != nil {
				return nil, err
			}
			obj = append(obj, field{"headers", h})
		}
	}
	if raw.oauth != nil {
		obj = append(obj, field{"oauth", oauthProduct(raw.oauth)})
	}
	if raw.sandbox != nil {
		obj = append(obj, field{"sandbox", sandboxProduct(raw.sandbox)})
	}
	if raw.timeout > 0 {
		obj = append(obj, field{"timeout", json.Number(strconv.FormatFloat(raw.timeout.Seconds(), 'f', -1, 64))})
	}
	return obj, nil
}

// ordered is a JSON object that keeps its keys in order.
type ordered []field

type field struct {
	key   string
	value any
}

func (o ordered) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, f := range o {
		if i > 0 {
			b.WriteByte(',')
		}
		if err := encodeJSON(&b, f.key); err != nil {
			return nil, err
		}
		b.WriteByte(':')
		if err := encodeJSON(&b, f.value); err != nil {
			return nil, err
		}
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// encodeJSON writes v without HTML escaping ("<", ">" and "&" stay as
// written).
func encodeJSON(b *bytes.Buffer, v any) error {
	enc := json.NewEncoder(b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return err
	}
	b.Truncate(b.Len() - 1) // Encode's newline
	return nil
}
