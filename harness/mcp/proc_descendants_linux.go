package mcp

import (
	"bytes"
	"os"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// killDescendants SIGKILLs every process that descends from root or
// carries tag (exactly, or as a prefix when tag ends in "."), rescanning
// until a scan finds none (a process may fork while it is killed), then
// reaps those this process adopted as a subreaper. It reads /proc.
func killDescendants(root int, tag string) {
	for range 8 {
		victims := findTree(root, tag)
		if len(victims) == 0 {
			return
		}
		for _, pid := range victims {
			syscall.Kill(pid, syscall.SIGKILL)
		}
		reapAdopted(victims)
	}
}

// findTree lists the living processes under root and those tagged with
// tag, never this process or a process that is not running (a zombie).
func findTree(root int, tag string) []int {
	ents, err := os.ReadDir("/proc")
	if err != nil {
		return nil
	}
	self := os.Getpid()
	parent := map[int]int{}
	var tagged []int
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil || pid == self {
			continue
		}
		ppid, state, ok := procStat(pid)
		if !ok || state == 'Z' || state == 'X' {
			continue
		}
		parent[pid] = ppid
		if tag != "" && hasTag(pid, tag) {
			tagged = append(tagged, pid)
		}
	}
	seen := map[int]bool{}
	out := tagged
	for _, p := range tagged {
		seen[p] = true
	}
	for pid := range parent {
		for p, hops := pid, 0; p > 1 && hops < 64; p, hops = parent[p], hops+1 {
			if (p == root || seen[p] && p != pid) && !seen[pid] {
				seen[pid] = true
				out = append(out, pid)
				break
			}
		}
	}
	return out
}

// procStat reads the parent pid and state of pid from /proc/PID/stat.
func procStat(pid int) (ppid int, state byte, ok bool) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return 0, 0, false
	}
	i := bytes.LastIndexByte(b, ')') // the command name may hold spaces and parentheses
	if i < 0 || i+2 >= len(b) {
		return 0, 0, false
	}
	f := strings.Fields(string(b[i+2:]))
	if len(f) < 2 {
		return 0, 0, false
	}
	ppid, err = strconv.Atoi(f[1])
	return ppid, f[0][0], err == nil
}

// hasTag reports whether pid's environment holds the tree tag (a prefix
// match when tag ends in ".": every provider of one instance).
func hasTag(pid int, tag string) bool {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/environ")
	if err != nil {
		return false
	}
	for _, kv := range bytes.Split(b, []byte{0}) {
		v, ok := bytes.CutPrefix(kv, []byte(treeEnv+"="))
		if !ok {
			continue
		}
		if strings.HasSuffix(tag, ".") {
			return bytes.HasPrefix(v, []byte(tag))
		}
		return string(v) == tag
	}
	return false
}

// reapAdopted waits for the killed processes that are this process's
// children only because it is a subreaper (their parent died), so they do
// not stay zombies; a provider itself is left to its exec.Cmd. It waits
// at most a second for each.
func reapAdopted(pids []int) {
	for _, pid := range pids {
		if !adopted(pid) {
			continue
		}
		deadline := time.Now().Add(time.Second)
		for {
			var ws syscall.WaitStatus
			got, err := syscall.Wait4(pid, &ws, syscall.WNOHANG, nil)
			if got == pid || err != nil || time.Now().After(deadline) {
				break
			}
			time.Sleep(5 * time.Millisecond)
		}
	}
}

// adopted reports whether pid is this process's child only because it is
// a subreaper: not a provider it started itself (whose exec.Cmd reaps it).
func adopted(pid int) bool {
	ppid, _, ok := procStat(pid)
	return ok && ppid == os.Getpid() && !ownChildren.has(pid)
}
