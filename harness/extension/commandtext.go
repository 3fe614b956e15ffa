package extension

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"unicode"
)

// maxArgRunes bounds one word of the command line or environment shown
// before installing.
const maxArgRunes = 300

// RunsText is the command line that starts the server, before
// substitution, as the install dialog and `openworker extension install`
// show it (docs/extensions.md#installing): each word as it is when it
// holds only printable characters other than spaces, quotes and
// backslashes, else Go-quoted (a newline shows as \n, a bidi override as
// \u202e), each cut at 300 runes with "…" and the count of the rest.
func (in *Inspection) RunsText() string {
	words := []string{wordText(in.Command)}
	for _, a := range in.Args {
		words = append(words, wordText(a))
	}
	return strings.Join(words, " ")
}

// EnvText is the environment the server is given, before substitution:
// KEY=VALUE words sorted by key, written as RunsText writes words; "" for
// none.
func (in *Inspection) EnvText() string {
	keys := slices.Sorted(maps.Keys(in.Env))
	for i, k := range keys {
		keys[i] = wordText(k) + "=" + wordText(in.Env[k])
	}
	return strings.Join(keys, " ")
}

func wordText(a string) string {
	if a == "" || strings.ContainsFunc(a, func(r rune) bool {
		return !unicode.IsGraphic(r) || unicode.IsSpace(r) || r == '"' || r == '\'' || r == '\\'
	}) {
		a = strconv.Quote(a)
	}
	if r := []rune(a); len(r) > maxArgRunes {
		return string(r[:maxArgRunes]) + fmt.Sprintf("… (%d more characters)", len(r)-maxArgRunes)
	}
	return a
}
