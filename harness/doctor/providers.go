package doctor

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/openworker/desktop/harness/internal/oneline"
	"github.com/openworker/desktop/harness/mcp"
	"github.com/openworker/desktop/harness/mcp/launch"
	"github.com/openworker/desktop/harness/mcp/oauth"
	"github.com/openworker/desktop/harness/tool"
	"github.com/openworker/desktop/internal/redact"
)

// parallel is how many providers doctor starts at once, as the
// runtime does (harness.Options.Parallel).
const parallel = 16

// providersSection starts each provider once, lists its tools and ends it.
func providersSection(ctx context.Context, in Input) Section {
	s := Section{Name: "providers"}
	if in.ServersFile != "" {
		s.Facts = append(s.Facts, checkFact("servers file", in.ServersErr, in.ServersFile))
	}
	servers := append([]tool.MCPServer(nil), in.Servers...)
	sort.Slice(servers, func(i, k int) bool { return servers[i].Namespace < servers[k].Namespace })
	facts := make([]Fact, len(servers))
	sem := make(chan struct{}, parallel)
	var wg sync.WaitGroup
	for i, srv := range servers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			facts[i] = startProvider(ctx, srv, in)
		}()
	}
	wg.Wait()
	s.Facts = append(s.Facts, facts...)
	s.Facts = append(s.Facts, agentFacts(ctx, in.Agents)...)
	for _, b := range in.Broken {
		key := "provider " + b.Namespace
		switch {
		case b.Namespace != "":
		case b.Name != "":
			key = "provider " + b.Name
		case in.ServersErr != nil: // the whole file, already its own line
			continue
		default:
			key = "servers file"
		}
		s.Facts = append(s.Facts, Fact{Key: key, Status: Failed, Value: "not usable: " + b.Err.Error()})
	}
	if len(servers)+len(in.Broken) == 0 {
		s.Facts = append(s.Facts, fact("providers", "none registered"))
	}
	return s
}

func startProvider(ctx context.Context, srv tool.MCPServer, in Input) Fact {
	key := "provider " + srv.Namespace
	what := describeServer(srv)
	start := time.Now()
	o := &mcp.Options{StartTimeout: in.StartTimeout, StartsFile: in.StartsFile, InstallDir: in.InstallDir, SearchPath: func(context.Context) launch.SearchPath { return in.searchPath }, ClientVersion: in.Version.Version}
	if in.Tokens != nil { // stored sign-ins only: doctor never opens a browser
		o.SignIn = &oauth.SignIn{Store: in.Tokens, Open: func(context.Context, string) error { return oauth.ErrSignInNeeded }}
		ctx = oauth.NoAsk(ctx)
	}
	p, err := mcp.Connect(ctx, srv, o)
	if err != nil {
		took := time.Since(start).Round(10 * time.Millisecond)
		return Fact{Key: key, Status: Failed, Value: fmt.Sprintf("%s: %s (after %s)", what, oneline.Cut(err.Error(), maxLine), took)}
	}
	defer p.Close()
	// Listing has the start's bound too: a server that answers initialize
	// but never tools/list must not hold the report.
	lctx, cancel := context.WithTimeout(ctx, startTimeout(in))
	defer cancel()
	tools, err := p.ListTools(lctx)
	took := time.Since(start).Round(10 * time.Millisecond)
	if err != nil {
		return Fact{Key: key, Status: Failed, Value: fmt.Sprintf("%s: started, but listing its tools failed: %s", what, oneline.Cut(err.Error(), maxLine))}
	}
	return Fact{Key: key, Status: OK, Value: fmt.Sprintf("%s: started, %d tools (%s)", what, len(tools), took)}
}

// startTimeout is in.StartTimeout, or mcp.DefaultStartTimeout.
func startTimeout(in Input) time.Duration {
	if in.StartTimeout > 0 {
		return in.StartTimeout
	}
	return mcp.DefaultStartTimeout
}

// describeServer names a provider without its secrets: the program (not
// its arguments) or the URL without user info or query values, and the
// names (never the values) of its env and headers.
func describeServer(srv tool.MCPServer) string {
	t := srv.Transport
	if t == "" {
		t = "stdio"
	}
	d := t + " "
	if srv.URL != "" {
		d += redact.URL(srv.URL)
	} else {
		// The program without what follows a space: a whole command line
		// written into "command" may hold a key.
		prog, _, _ := strings.Cut(srv.Program, " ")
		d += prog
	}
	if n := names(srv.Env); n != "" {
		d += " env " + n
	}
	if n := names(srv.Headers); n != "" {
		d += " headers " + n
	}
	return d
}

func names(m map[string]string) string {
	ks := make([]string, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return strings.Join(ks, ",")
}

// maxLine is how many runes of an error a provider line keeps.
const maxLine = 1000
