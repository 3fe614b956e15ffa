package device

import (
	"bufio"
	"context"
	"os"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

func TestSystemInfo(t *testing.T) {
	var (
		mu     sync.Mutex
		events []*sdk.ProgressNotificationParams
	)
	cs := connect(t, func(p *sdk.ProgressNotificationParams) {
		mu.Lock()
		defer mu.Unlock()
		events = append(events, p)
	})
	var info SystemInfo
	res := call(t, cs, "system_info_get", nil, sdk.Meta{"progressToken": "sys-1"}, &info)
	if res.IsError {
		t.Fatalf("system_info_get failed: %s", errorText(res))
	}
	if info.OS != runtime.GOOS {
		t.Errorf("os = %q, want %q", info.OS, runtime.GOOS)
	}
	if host, _ := os.Hostname(); info.Hostname != clip(host) {
		t.Errorf("hostname = %q, want %q", info.Hostname, host)
	}
	if info.CPUCount < 1 || info.Arch == "" || info.Platform == "" {
		t.Errorf("cpu_count %d, arch %q, platform %q: want all set", info.CPUCount, info.Arch, info.Platform)
	}
	if info.MemoryTotal == 0 || info.MemoryAvailable == 0 || info.MemoryAvailable > info.MemoryTotal {
		t.Errorf("memory total %d available %d: want 0 < available <= total", info.MemoryTotal, info.MemoryAvailable)
	}
	if info.UptimeSeconds == 0 {
		t.Errorf("uptime_seconds = 0")
	}
	if runtime.GOOS == "linux" {
		if kb := memTotalKB(t); info.MemoryTotal != kb*1024 {
			t.Errorf("memory_total = %d, want %d from /proc/meminfo", info.MemoryTotal, kb*1024)
		}
	}
	// Progress notifications may still be in flight when the result lands.
	waitFor(t, func() bool { mu.Lock(); defer mu.Unlock(); return len(events) >= 4 })
	mu.Lock()
	defer mu.Unlock()
	for i, e := range events {
		if e.ProgressToken != "sys-1" || e.Total != 3 || e.Progress != float64(i) || e.Message == "" {
			t.Errorf("progress %d = %+v, want token sys-1, progress %d of 3, a message", i, e, i)
		}
	}
}

func TestSystemInfoNoProgressWithoutToken(t *testing.T) {
	var n int
	var mu sync.Mutex
	cs := connect(t, func(*sdk.ProgressNotificationParams) { mu.Lock(); n++; mu.Unlock() })
	var info SystemInfo
	call(t, cs, "system_info_get", nil, nil, &info)
	// A ping round trip orders any stray notification before its reply.
	if err := cs.Ping(context.Background(), nil); err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	defer mu.Unlock()
	if n != 0 {
		t.Errorf("got %d progress notifications without a progress token, want 0", n)
	}
}

func memTotalKB(t *testing.T) uint64 {
	f, err := os.Open("/proc/meminfo")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if rest, ok := strings.CutPrefix(sc.Text(), "MemTotal:"); ok {
			v, err := strconv.ParseUint(strings.Fields(rest)[0], 10, 64)
			if err != nil {
				t.Fatal(err)
			}
			return v
		}
	}
	t.Fatal("no MemTotal in /proc/meminfo")
	return 0
}
