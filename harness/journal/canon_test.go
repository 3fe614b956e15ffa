package journal

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/gowebpki/jcs"
)

// jcsPayload is how the journal built payloads before canon.go: a map
// marshalled by encoding/json, then canonicalized by gowebpki/jcs. Chains
// written by earlier builds hold digests of these bytes.
func jcsPayload(t testing.TB, table string, row rowPayload) []byte {
	m := map[string]any{}
	for _, f := range row {
		m[f.col] = f.val
	}
	raw, err := json.Marshal(map[string]any{"table": table, "row": m})
	if err != nil {
		t.Fatal(err)
	}
	canon, err := jcs.Transform(raw)
	if err != nil {
		t.Fatalf("jcs.Transform(%s) = %v", raw, err)
	}
	return canon
}

func checkCanonical(t testing.TB, table string, row rowPayload) {
	t.Helper()
	row = append(rowPayload(nil), row...)
	sortFields(row)
	got := canonicalPayload(nil, table, row)
	if want := jcsPayload(t, table, row); !bytes.Equal(got, want) {
		t.Fatalf("canonicalPayload differs from JCS:\n got %q\nwant %q", got, want)
	}
}

// TestCanonicalMatchesJCS: the direct writer produces exactly the bytes of
// the encoding/json + RFC 8785 path, so old chains keep verifying.
func TestCanonicalMatchesJCS(t *testing.T) {
	edge := []string{"", "plain", `quote " and \ backslash`, "\x00\x01\x07\b\t\n\v\f\r\x1b\x1f\x20\x7f",
		"<html> & 'apos'", "\u2028\u2029", "é ü 中文 🙂 \U0010FFFF", "\uFFFD literal", "bad \xff\xfe utf8",
		"\xed\xa0\x80 encoded surrogate", "trunc \xe2\x82", `{"json":[1,2.5e10,null]}`, "/slash"}
	for _, s := range edge {
		checkCanonical(t, "invocations", rowPayload{{"arguments", s}, {"id", "x"}, {s, "as a key"}})
	}
	// Column names that sort differently in UTF-8 and UTF-16.
	checkCanonical(t, "t", rowPayload{{"\uFF61", "a"}, {"\U0001F600", "b"}, {"a", "c"}, {"A", "d"}, {"_", "e"}})

	rng := rand.New(rand.NewPCG(1, 2))
	alphabet := []rune{'a', 'Z', '"', '\\', '\n', 0, 0x1f, 0x7f, 'é', 0x2028, 0xFFFD, 0xE000, 0x1F600, '<'}
	for i := 0; i < 2000; i++ {
		var row rowPayload
		for c := rng.IntN(6); c >= 0; c-- {
			key := strings.ToValidUTF8(randString(rng, alphabet, 6), "") // column names are valid text
			if _, dup := row.get(key); dup {
				continue
			}
			row = append(row, field{key, randString(rng, alphabet, 40)})
		}
		checkCanonical(t, "messages", row)
	}
}

func randString(rng *rand.Rand, alphabet []rune, n int) string {
	var b []byte
	for k := rng.IntN(n + 1); k > 0; k-- {
		if rng.IntN(10) == 0 {
			b = append(b, byte(0x80+rng.IntN(0x80))) // a stray byte: invalid UTF-8
			continue
		}
		b = append(b, string(alphabet[rng.IntN(len(alphabet))])...)
	}
	return string(b)
}

func FuzzCanonicalMatchesJCS(f *testing.F) {
	f.Add("k", "v")
	f.Add("\xff", "\x00\"\\")
	f.Fuzz(func(t *testing.T, k, v string) {
		if k = strings.ToValidUTF8(k, ""); k == "id" {
			return
		}
		checkCanonical(t, "approvals", rowPayload{{k, v}, {"id", "1"}})
	})
}

func BenchmarkPayloadDigest(b *testing.B) {
	row := rowPayload{{"arguments", `{"text":"hello"}`}, {"id", "inv_0123456789"}, {"session_id", "ses_0123456789"},
		{"status", "executing"}, {"created_at", "2025-03-01T12:00:00.001000000Z"}, {"tool", "notes.append"}}
	sortFields(row)
	b.Run("direct", func(b *testing.B) {
		for b.Loop() {
			payloadDigest("invocations", row)
		}
	})
	b.Run("json+jcs", func(b *testing.B) {
		for b.Loop() {
			jcsPayload(b, "invocations", row)
		}
	})
}
