package a2a

import "testing"

// FuzzCard: an agent card of either protocol version parses or gives an
// error, never a panic (scripts/fuzz.sh).
func FuzzCard(f *testing.F) {
	for _, s := range []string{
		`{"name":"agent","description":"d","url":"http://127.0.0.1:1/","version":"1.0.0","protocolVersion":"0.3.0","capabilities":{"streaming":true},"defaultInputModes":["text/plain"],"defaultOutputModes":["text/plain"],"skills":[{"id":"s","name":"S","description":"d","tags":["t"]}]}`,
		`{"name":"agent","description":"d","version":"1.0.0","supportedInterfaces":[{"url":"http://127.0.0.1:1/","protocolBinding":"JSONRPC","protocolVersion":"1.0"}],"capabilities":{},"defaultInputModes":["text/plain"],"defaultOutputModes":["text/plain"],"skills":[{"id":"s","name":"S","description":"d","tags":["t"]}]}`,
		`{}`, `null`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		parseCard(data)
	})
}
