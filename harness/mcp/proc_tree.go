package mcp

import (
	"fmt"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// treeEnv is the variable whose value tags the processes of one provider:
// every descendant inherits it (docs/mcp.md#process-tree).
const treeEnv = "OPENWORKER_PROCESS_TREE"

// instance is this process's part of every tag: its pid and start time,
// so two OpenWorker processes never share one.
var instance = fmt.Sprintf("%d-%x", os.Getpid(), time.Now().UnixNano())

var treeSeq atomic.Int64

func nextTreeTag() string { return fmt.Sprintf("%s.%d", instance, treeSeq.Add(1)) }

// InstanceTagPrefix is what every tag of this process starts with.
func InstanceTagPrefix() string { return instance + "." }

// tagOf returns the tag in env ("" for none).
func tagOf(env []string) string {
	for i := len(env) - 1; i >= 0; i-- {
		if v, ok := strings.CutPrefix(env[i], treeEnv+"="); ok {
			return v
		}
	}
	return ""
}

// ownChildren are the providers this process started itself: their
// exec.Cmd reaps them, so the subreaper's reaping leaves them alone.
var ownChildren = &pidSet{m: map[int]bool{}}

type pidSet struct {
	mu sync.Mutex
	m  map[int]bool
}

func (s *pidSet) add(pid int) {
	s.mu.Lock()
	s.m[pid] = true
	s.mu.Unlock()
}

func (s *pidSet) remove(pid int) {
	s.mu.Lock()
	delete(s.m, pid)
	s.mu.Unlock()
}

func (s *pidSet) has(pid int) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.m[pid]
}
