package a2a

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/a2aproject/a2a-go/a2a"
	"github.com/gowebpki/jcs"

	"github.com/openworker/desktop/harness/tool"
)

// Bounds of reading an agent card (docs/a2a.md#cards).
const (
	// MaxCardBytes bounds the agent card: 1 MB.
	MaxCardBytes = 1 << 20
	// DefaultCardTimeout bounds fetching the card: 10 s.
	DefaultCardTimeout = 10 * time.Second
	// DefaultCancelTimeout bounds the tasks/cancel sent after a call ends
	// early: 5 s.
	DefaultCancelTimeout = 5 * time.Second
	// DefaultPollInterval is the wait between two tasks/get while a call
	// follows a task of an agent that does not stream: 1 s.
	DefaultPollInterval = time.Second
	// MaxResponseBytes bounds one answer of the agent (a whole stream
	// included): 8 MB. What reaches the model is bounded again by
	// tool.Limits.ResultBytes.
	MaxResponseBytes = 8 << 20
)

// sharedTransport carries every agent's requests unless Options say
// otherwise, so cards read for each resolution share connections.
var sharedTransport http.RoundTripper = http.DefaultTransport.(*http.Transport).Clone()

// Options tune an Agent. The zero value means the defaults above.
type Options struct {
	CardTimeout   time.Duration
	CancelTimeout time.Duration
	PollInterval  time.Duration
	// After is the clock a call waits on between two tasks/get; nil means
	// time.After. Tests inject their own.
	After func(time.Duration) <-chan time.Time
	// Transport is the HTTP transport under the agent's headers; nil means
	// one shared clone of http.DefaultTransport.
	Transport http.RoundTripper
}

func (o Options) fill() Options {
	if o.CardTimeout <= 0 {
		o.CardTimeout = DefaultCardTimeout
	}
	if o.CancelTimeout <= 0 {
		o.CancelTimeout = DefaultCancelTimeout
	}
	if o.PollInterval <= 0 {
		o.PollInterval = DefaultPollInterval
	}
	if o.After == nil {
		o.After = time.After
	}
	if o.Transport == nil {
		o.Transport = sharedTransport
	}
	return o
}

// Agent is a remote A2A agent whose card was read: its skills as tool
// descriptors, the card's digest, and a JSON-RPC client of its endpoint.
// It is safe for concurrent use.
type Agent struct {
	cfg      tool.A2AAgent
	opts     Options
	card     *a2a.AgentCard
	raw      []byte
	digest   string
	endpoint string
	http     *http.Client
	version  string // the protocol version spoken: "1.0" or "0.3" (v1.go)
	rpc      rpcClient
	secrets  redactor
}

// CardError is the error of a card that could not be read or used. It
// names the card's URL (without its secrets) and the problem.
type CardError struct {
	URL     string // the card's URL, password and query values redacted
	Problem string
	Err     error // the underlying error, if any
}

func (e *CardError) Error() string {
	return fmt.Sprintf("A2A agent card %s: %s", e.URL, e.Problem)
}

func (e *CardError) Unwrap() error { return e.Err }

// Fetch reads the agent card of cfg (a GET of cfg.Card with cfg.Headers,
// at most MaxCardBytes, within Options.CardTimeout or ctx) and checks it:
// JSON with a name, an endpoint "url" under the same rules as the card's
// (https:// anywhere, http:// only on this computer), a JSON-RPC
// interface, and at least one skill with a distinct, non-empty id. Every
// failure is a *CardError naming the URL and the problem; nothing is
// retried.
func Fetch(ctx context.Context, cfg tool.A2AAgent, opts Options) (*Agent, error) {
	opts = opts.fill()
	where := redactURL(cfg.Card)
	if err := checkURL(cfg.Card); err != nil {
		return nil, &CardError{URL: where, Problem: err.Error()}
	}
	hc := &http.Client{Transport: &headerTransport{base: opts.Transport, headers: cfg.Headers, limit: MaxResponseBytes}}
	raw, err := getCard(ctx, hc, cfg, opts.CardTimeout)
	if err != nil {
		var ce *CardError
		if errors.As(err, &ce) {
			return nil, err
		}
		return nil, &CardError{URL: where, Problem: err.Error(), Err: err}
	}
	card, endpoint, version, err := parseCard(raw)
	if err != nil {
		return nil, &CardError{URL: where, Problem: err.Error(), Err: err}
	}
	digest, err := Digest(raw)
	if err != nil {
		return nil, &CardError{URL: where, Problem: err.Error(), Err: err}
	}
	return &Agent{cfg: cfg, opts: opts, card: card, raw: raw, digest: digest, endpoint: endpoint, http: hc,
		version: version, rpc: newRPC(version, endpoint, hc), secrets: newRedactor(cfg)}, nil
}

func getCard(ctx context.Context, hc *http.Client, cfg tool.A2AAgent, timeout time.Duration) ([]byte, error) {
	ctx, cancel := context.WithTimeoutCause(ctx, timeout, fmt.Errorf("the agent did not answer within %s", timeout))
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, cfg.Card, nil)
	if err != nil {
		return nil, fmt.Errorf("cannot build the request: %v", err)
	}
	req.Header.Set("Accept", "application/json")
	resp, err := hc.Do(req)
	if err != nil {
		if c := context.Cause(ctx); c != nil && ctx.Err() != nil {
			return nil, c
		}
		return nil, fmt.Errorf("cannot be fetched: %v", scrub(err, cfg.Card))
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("the server answered HTTP %s; check the URL (usually https://HOST/.well-known/agent-card.json) and the headers", resp.Status)
	}
	raw, err := io.ReadAll(io.LimitReader(resp.Body, MaxCardBytes+1))
	if err != nil {
		if c := context.Cause(ctx); c != nil && ctx.Err() != nil {
			return nil, c
		}
		return nil, fmt.Errorf("reading it failed: %v", scrub(err, cfg.Card))
	}
	if len(raw) > MaxCardBytes {
		return nil, fmt.Errorf("it is over %d bytes (1 MB), the bound of an agent card", MaxCardBytes)
	}
	return raw, nil
}

// parseCard checks a card and returns it (in 0.3 types) with its
// JSON-RPC endpoint and the protocol version spoken there: "1.0" for a
// 1.0 card's 1.x interface (v1.go), else "0.3".
func parseCard(raw []byte) (*a2a.AgentCard, string, string, error) {
	if err := checkJSON(raw); err != nil {
		return nil, "", "", err
	}
	var card *a2a.AgentCard
	var endpoint, version string
	if isV1Card(raw) {
		var err error
		if card, endpoint, version, err = parseV1Card(raw); err != nil {
			return nil, "", "", err
		}
	} else {
		card = &a2a.AgentCard{}
		if err := json.Unmarshal(raw, card); err != nil {
			return nil, "", "", fmt.Errorf("it is not an agent card: %v", err)
		}
		var err error
		if endpoint, err = jsonRPCEndpoint(card); err != nil {
			return nil, "", "", err
		}
		version = "0.3"
	}
	if strings.TrimSpace(card.Name) == "" {
		return nil, "", "", errors.New(`it has no "name"`)
	}
	if err := checkSkills(card.Skills); err != nil {
		return nil, "", "", err
	}
	return card, endpoint, version, nil
}

// ProtocolVersion is the A2A protocol version spoken with the agent:
// "1.0" or "0.3" (docs/a2a.md#versions).
func (a *Agent) ProtocolVersion() string { return a.version }

// jsonRPCEndpoint returns the card's JSON-RPC endpoint: its url when
// JSON-RPC is the preferred transport (the default), else the first
// additional interface over JSON-RPC. The endpoint must pass checkURL.
func jsonRPCEndpoint(card *a2a.AgentCard) (string, error) {
	endpoint := ""
	if card.PreferredTransport == "" || card.PreferredTransport == a2a.TransportProtocolJSONRPC {
		endpoint = card.URL
	} else {
		for _, in := range card.AdditionalInterfaces {
			if in.Transport == a2a.TransportProtocolJSONRPC {
				endpoint = in.URL
				break
			}
		}
	}
	if endpoint == "" && card.URL == "" {
		return "", errors.New(`it has no "url" (the agent's endpoint)`)
	}
	if endpoint == "" {
		return "", fmt.Errorf("it offers no JSONRPC interface (preferredTransport %q); OpenWorker speaks A2A over JSON-RPC only", card.PreferredTransport)
	}
	if err := checkURL(endpoint); err != nil {
		return "", fmt.Errorf("its endpoint: %v", err)
	}
	return endpoint, nil
}

// checkSkills wants at least one skill (each becomes a tool) and a
// distinct id on every one.
func checkSkills(skills []a2a.AgentSkill) error {
	if len(skills) == 0 {
		return errors.New(`it lists no "skills"; each skill becomes a tool, so an agent without skills offers nothing`)
	}
	seen := map[string]bool{}
	for i, s := range skills {
		if s.ID == "" {
			return fmt.Errorf("skill %d (%q) has no \"id\"", i, s.Name)
		}
		if seen[s.ID] {
			return fmt.Errorf("skill id %q is listed twice", s.ID)
		}
		seen[s.ID] = true
	}
	return nil
}

// checkJSON reports where a card that is not JSON breaks, as line:column.
func checkJSON(raw []byte) error {
	var v any
	err := json.Unmarshal(raw, &v)
	if err == nil {
		if _, ok := v.(map[string]any); !ok {
			return errors.New("it is not a JSON object")
		}
		return nil
	}
	var se *json.SyntaxError
	if errors.As(err, &se) {
		line, col := lineCol(raw, se.Offset)
		return fmt.Errorf("it is not JSON: line %d, column %d: %v", line, col, se)
	}
	return fmt.Errorf("it is not JSON: %v", err)
}

func lineCol(raw []byte, off int64) (int, int) {
	off-- // Offset counts the byte that broke the syntax
	if off > int64(len(raw)) {
		off = int64(len(raw))
	}
	if off < 0 {
		off = 0
	}
	before := raw[:off]
	line := bytes.Count(before, []byte("\n")) + 1
	col := int(off) - bytes.LastIndexByte(before, '\n')
	if col < 1 {
		col = 1
	}
	return line, col
}

// Digest is the digest of a card: SHA-256 of its canonical JSON (RFC 8785),
// "sha256:HEX". It is the descriptor digest of every skill of the card, so
// any change of the card asks for approval again (docs/a2a.md#identity).
func Digest(raw []byte) (string, error) {
	canon, err := jcs.Transform(raw)
	if err != nil {
		return "", fmt.Errorf("canonicalize the card: %v", err)
	}
	sum := sha256.Sum256(canon)
	return "sha256:" + hex.EncodeToString(sum[:]), nil
}

// checkURL applies docs/servers.md#remote-servers: https:// on any host,
// http:// only on this computer.
func checkURL(raw string) error {
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" || (u.Scheme != "http" && u.Scheme != "https") {
		return fmt.Errorf("%q is not an http:// or https:// URL", redactURL(raw))
	}
	if u.Scheme == "http" && !tool.IsLoopbackHost(u.Hostname()) {
		return fmt.Errorf("%q is not this computer; plain http:// is allowed only for a loopback address; use https://", u.Hostname())
	}
	return nil
}

// Card returns the card as read. Do not modify it.
func (a *Agent) Card() *a2a.AgentCard { return a.card }

// Raw returns the card's bytes as served.
func (a *Agent) Raw() []byte { return a.raw }

// Digest is the card's digest (see Digest).
func (a *Agent) Digest() string { return a.digest }

// Endpoint is the JSON-RPC URL calls go to.
func (a *Agent) Endpoint() string { return a.endpoint }

// Placement is where calls go: tool.PlacementLocal for a loopback
// endpoint, else its host name (docs/consent.md#placement).
func (a *Agent) Placement() string { return tool.URLPlacement(a.endpoint) }

// Streaming reports whether the card says the agent streams, so calls use
// message/stream.
func (a *Agent) Streaming() bool { return a.card.Capabilities.Streaming }

// Config is the registration the agent was read for.
func (a *Agent) Config() tool.A2AAgent { return a.cfg }

// InputSchema is the input of every skill: a message of text and
// optional structured data (docs/a2a.md#calls).
const InputSchema = `{"type":"object","properties":{` +
	`"text":{"type":"string","description":"The message to the agent."},` +
	`"data":{"type":"object","description":"Optional structured data, sent as a data part of the message."}},` +
	`"required":["text"],"additionalProperties":false}`

// Skill is one skill of the card as a tool.
type Skill struct {
	ID         string
	Descriptor tool.Descriptor
}

// Skills returns the card's skills as tool descriptors named
// "NAMESPACE.SKILL_ID", in the card's order. Names are not checked here:
// the harness checks them as it checks MCP tool names
// (tool.CheckMCPName, the 80-byte bound, alias collisions). Each
// descriptor is External, NonIdempotentWrite and Cooperative; its Version
// is the card's "version" (or "0.0.0").
func (a *Agent) Skills() []Skill {
	version := a.card.Version
	if version == "" {
		version = "0.0.0"
	}
	out := make([]Skill, 0, len(a.card.Skills))
	for _, s := range a.card.Skills {
		desc := strings.TrimSpace(s.Description)
		if s.Name != "" && s.Name != s.ID {
			desc = strings.TrimSpace(s.Name + ": " + desc)
		}
		if len(s.Examples) > 0 {
			desc += "\nExamples: " + strings.Join(s.Examples, "; ")
		}
		desc += fmt.Sprintf("\n(A skill of the remote agent %q.)", a.card.Name)
		out = append(out, Skill{ID: s.ID, Descriptor: tool.Descriptor{
			Name:           a.cfg.Namespace + "." + s.ID,
			Description:    desc,
			InputSchema:    json.RawMessage(InputSchema),
			Version:        version,
			Risk:           tool.NonIdempotentWrite,
			Cancellation:   tool.Cooperative,
			Classification: tool.External,
		}})
	}
	return out
}

// skill returns the card's skill id, or false.
func (a *Agent) skill(id string) bool {
	for _, s := range a.card.Skills {
		if s.ID == id {
			return true
		}
	}
	return false
}
