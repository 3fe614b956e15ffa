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
	in := inputDefs{seen: map[string]ConfigInput{}}
	servers := ordered{}
	nsSeen := map[string]string{}
	for _, e := range entries {
		if err := writable(e, nsSeen); err != nil {
			return nil, err
		}
		obj, err := e.raw.product()
		if err != nil {
			return nil, fmt.Errorf("server %q (line %d) cannot be written: %v", e.Name, e.Line, err)
		}
		if e.Disabled {
			obj = append(obj, field{"disabled", true})
		}
		servers = append(servers, field{e.Server.Namespace, obj})
		if err := in.add(e.raw.inputs); err != nil {
			return nil, err
		}
	}
	doc := ordered{}
	if len(in.list) > 0 {
		doc = append(doc, field{"inputs", in.list})
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

// writable checks that e can be written: it was read, and its namespace
// is valid and not one nsSeen (namespace → name) has already; it adds e's.
func writable(e ConfigEntry, nsSeen map[string]string) error {
	ns := e.Server.Namespace
	if e.raw == nil || ns == "" {
		why := "it was not read"
		if e.Err != nil {
			why = e.Err.Error()
		}
		return fmt.Errorf("server %q (line %d) cannot be written: %s", e.Name, e.Line, why)
	}
	if err := tool.CheckNamespace(ns); err != nil {
		return fmt.Errorf("server %q: %w", e.Name, err)
	}
	if prev, dup := nsSeen[ns]; dup {
		return fmt.Errorf("servers %q and %q both have the namespace %q; write only one of them", prev, e.Name, ns)
	}
	nsSeen[ns] = e.Name
	return nil
}

// inputDefs are the written file's "inputs": each input once, in
// first-use order.
type inputDefs struct {
	seen map[string]ConfigInput
	list []any
}

// add adds the definitions of inputs not added yet; an input defined
// twice, differently, is an error.
func (d *inputDefs) add(inputs []ConfigInput) error {
	for _, in := range inputs {
		if prev, ok := d.seen[in.ID]; ok {
			if prev != in {
				return fmt.Errorf("input %q is defined twice, differently; give one of them another id", in.ID)
			}
			continue
		}
		d.seen[in.ID] = in
		def := ordered{{"type", "promptString"}, {"id", in.ID}, {"description", in.Description}}
		if in.Password {
			def = append(def, field{"password", true})
		}
		d.list = append(d.list, def)
	}
	return nil
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
	var (
		keys ordered
		err  error
	)
	if raw.transport == tool.TransportStdio {
		keys, err = raw.programProduct()
	} else {
		keys, err = raw.addressProduct()
	}
	if err != nil {
		return nil, err
	}
	obj := append(ordered{{"transport", raw.transport}}, keys...)
	blocks, err := raw.blocksProduct()
	if err != nil {
		return nil, err
	}
	return append(obj, blocks...), nil
}

// text is tv in the product's variable syntax.
func (raw *rawEntry) text(tv tval) (string, error) { return raw.x.productText(tv.t) }

// pairs is list ("env", "headers") in the product's syntax.
func (raw *rawEntry) pairs(list []kv) (ordered, error) {
	out := ordered{}
	for _, p := range list {
		v, err := raw.text(p.v)
		if err != nil {
			return nil, err
		}
		out = append(out, field{p.key, v})
	}
	return out, nil
}

// programProduct is a stdio server's "command", "args", "env" and "cwd";
// empty ones are left out.
func (raw *rawEntry) programProduct() (ordered, error) {
	cmd, err := raw.text(raw.command)
	if err != nil {
		return nil, err
	}
	obj := ordered{{"command", cmd}}
	if len(raw.args) > 0 {
		args := make([]any, 0, len(raw.args))
		for _, a := range raw.args {
			v, err := raw.text(a)
			if err != nil {
				return nil, err
			}
			args = append(args, v)
		}
		obj = append(obj, field{"args", args})
	}
	if len(raw.env) > 0 {
		env, err := raw.pairs(raw.env)
		if err != nil {
			return nil, err
		}
		obj = append(obj, field{"env", env})
	}
	if raw.cwd != nil {
		cwd, err := raw.cwdProduct()
		if err != nil {
			return nil, err
		}
		obj = append(obj, field{"cwd", cwd})
	} else if raw.workspace != "" { // it ran in its project: written, it still does
		cwd, err := raw.x.productText(template{{kind: partLit, text: raw.workspace}})
		if err != nil {
			return nil, err
		}
		obj = append(obj, field{"cwd", cwd})
	}
	return obj, nil
}

// cwdProduct is "cwd" in the product's syntax. A literal relative folder
// resolved against the file it came from; written absolute, it means the
// same from anywhere.
func (raw *rawEntry) cwdProduct() (string, error) {
	cwd, err := raw.text(*raw.cwd)
	if err != nil {
		return "", err
	}
	if lit, ok := raw.cwd.t.literalOnly(); ok && lit != "" && !filepath.IsAbs(lit) {
		cwd, _ = raw.x.productText(template{{kind: partLit, text: filepath.Join(raw.cwdBase, lit)}})
	}
	return cwd, nil
}

// addressProduct is a remote server's "url" and "headers".
func (raw *rawEntry) addressProduct() (ordered, error) {
	u, err := raw.text(raw.url)
	if err != nil {
		return nil, err
	}
	obj := ordered{{"url", u}}
	if len(raw.headers) > 0 {
		h, err := raw.pairs(raw.headers)
		if err != nil {
			return nil, err
		}
		obj = append(obj, field{"headers", h})
	}
	return obj, nil
}

// blocksProduct is what any transport may have: "oauth", "sandbox",
// "timeout" and "startup_timeout" (in seconds).
func (raw *rawEntry) blocksProduct() (ordered, error) {
	var obj ordered
	if raw.oauth != nil {
		o, err := raw.oauthProduct()
		if err != nil {
			return nil, err
		}
		obj = append(obj, field{"oauth", o})
	}
	if raw.sandbox != nil {
		obj = append(obj, field{"sandbox", sandboxProduct(raw.sandbox)})
	}
	if raw.timeout > 0 {
		obj = append(obj, field{"timeout", json.Number(strconv.FormatFloat(raw.timeout.Seconds(), 'f', -1, 64))})
	}
	if raw.start > 0 {
		obj = append(obj, field{"startup_timeout", json.Number(strconv.FormatFloat(raw.start.Seconds(), 'f', -1, 64))})
	}
	if raw.tasks {
		obj = append(obj, field{"tasks", true})
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
