package doctor

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"sync"

	"github.com/openworker/desktop/harness/a2a"
	"github.com/openworker/desktop/harness/tool"
)

// agentFacts reads the card of each A2A agent (at most parallel
// at once, each within a2a.DefaultCardTimeout) and says what it offers,
// or why it cannot be used (docs/a2a.md#cards). It sends no message.
func agentFacts(ctx context.Context, agents []tool.A2AAgent) []Fact {
	agents = append([]tool.A2AAgent(nil), agents...)
	sort.Slice(agents, func(i, k int) bool { return agents[i].Namespace < agents[k].Namespace })
	facts := make([]Fact, len(agents))
	sem := make(chan struct{}, parallel)
	var wg sync.WaitGroup
	for i, ag := range agents {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			facts[i] = agentFact(ctx, ag)
		}()
	}
	wg.Wait()
	return facts
}

func agentFact(ctx context.Context, cfg tool.A2AAgent) Fact {
	key := "A2A agent " + cfg.Namespace
	ag, err := a2a.Fetch(ctx, cfg, a2a.Options{})
	if err != nil {
		return checkFact(key, err, "")
	}
	var ids []string
	for _, s := range ag.Skills() {
		ids = append(ids, s.ID)
	}
	mode := "message/send"
	if ag.Streaming() {
		mode = "message/stream"
	}
	return checkFact(key, nil, fmt.Sprintf("%q, %d skills (%s), %s %s, card %s", ag.Card().Name, len(ids), strings.Join(ids, ", "), mode, placementText(ag.Placement()), ag.Digest()))
}

func placementText(p string) string {
	if p == tool.PlacementLocal {
		return p
	}
	return "at " + p
}
