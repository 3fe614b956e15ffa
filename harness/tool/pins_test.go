package tool

import (
	"context"
	"strings"
	"testing"
	"testing/fstest"
)

type fakePinned struct {
	name, version, in, out string
}

func (f fakePinned) Descriptor() Descriptor { return Descriptor{Name: f.name, Version: f.version} }
func (f fakePinned) InputDigest() string    { return f.in }
func (f fakePinned) OutputDigest() string   { return f.out }

var (
	dA = "sha256:" + strings.Repeat("a", 64)
	dB = "sha256:" + strings.Repeat("b", 64)
	dC = "sha256:" + strings.Repeat("c", 64)
)

func TestPinsCheck(t *testing.T) {
	file := `{"tools": {"ex.t": [
		{"version": "1.0.0", "input": "` + dA + `", "output": "` + dB + `"},
		{"version": "1.1.0", "input": "` + dC + `", "output": "` + dB + `"}]}}`
	p, err := LoadPinsFS(fstest.MapFS{"pins.json": {Data: []byte(file)}}, "pins.json")
	if err != nil {
		t.Fatal(err)
	}
	if err := p.Check(fakePinned{"ex.t", "1.1.0", dC, dB}); err != nil {
		t.Errorf("current version matches its pin, Check = %v", err)
	}
	if err := p.Check(fakePinned{"ex.t", "1.0.0", dA, dB}); err != nil {
		t.Errorf("old version matches its old pin, Check = %v", err)
	}
	err = p.Check(fakePinned{"ex.t", "1.1.0", dA, dB})
	for _, want := range []string{"schema drift", "ex.t", "1.1.0", dA, dC, "pins.json", "bump the tool version", "never rewrite an old pin"} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("drift error %v does not contain %q", err, want)
		}
	}
	err = p.Check(fakePinned{"ex.t", "2.0.0", dA, dC})
	for _, want := range []string{"no schema pin", "2.0.0", dA, dC} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("missing pin error %v does not contain %q", err, want)
		}
	}
}

func TestLoadPinsRefuses(t *testing.T) {
	for name, file := range map[string]string{
		"unknown field": `{"tools":{},"extra":1}`,
		"bad digest":    `{"tools":{"ex.t":[{"version":"1.0.0","input":"sha1:00"}]}}`,
		"no version":    `{"tools":{"ex.t":[{"input":"` + dA + `"}]}}`,
		"duplicate":     `{"tools":{"ex.t":[{"version":"1.0.0","input":"` + dA + `"},{"version":"1.0.0","input":"` + dB + `"}]}}`,
		"not json":      `{`,
	} {
		if _, err := LoadPins([]byte(file)); err == nil {
			t.Errorf("%s: LoadPins accepted %s", name, file)
		}
	}
}

func TestPinsAddNeverRewrites(t *testing.T) {
	var p Pins
	if err := p.Add(fakePinned{"ex.t", "1.0.0", dA, dB}); err != nil {
		t.Fatal(err)
	}
	if err := p.Add(fakePinned{"ex.t", "1.0.0", dA, dB}); err != nil {
		t.Errorf("re-adding the same pin = %v", err)
	}
	if err := p.Add(fakePinned{"ex.t", "1.0.0", dC, dB}); err == nil || !strings.Contains(err.Error(), "refusing to rewrite") {
		t.Errorf("rewriting a pin = %v", err)
	}
	if err := p.Add(fakePinned{"ex.t", "1.1.0", dC, dB}); err != nil {
		t.Fatal(err)
	}
	data, err := p.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	back, err := LoadPins(data)
	if err != nil {
		t.Fatalf("Marshal output does not load: %v\n%s", err, data)
	}
	if pin, ok := back.Lookup("ex.t", "1.0.0"); !ok || pin.Input != dA {
		t.Errorf("old pin lost after Marshal: %s", data)
	}
	if pin, ok := back.Lookup("ex.t", "1.1.0"); !ok || pin.Input != dC {
		t.Errorf("new pin lost after Marshal: %s", data)
	}
}

func TestPinsCheckTyped(t *testing.T) {
	tt := newGreet(t, nil)
	var p Pins
	if err := p.Add(tt); err != nil {
		t.Fatal(err)
	}
	if err := p.Check(tt); err != nil {
		t.Errorf("Check after Add = %v", err)
	}
	// Same version, changed schema: drift.
	changed, err := NewTyped(Descriptor{Name: "example.greet", Version: "1.2.0"}, func(_ context.Context, _ *Call, in greetIn) (greetOut, error) { return greetOut{}, nil })
	if err != nil {
		t.Fatal(err)
	}
	if err := p.Check(changed); err == nil || !strings.Contains(err.Error(), "schema drift") {
		t.Errorf("Check of a changed schema = %v, want drift", err)
	}
}
