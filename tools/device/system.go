package device

import (
	"context"
	"fmt"
	"runtime"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/shirou/gopsutil/v4/cpu"
	"github.com/shirou/gopsutil/v4/host"
	"github.com/shirou/gopsutil/v4/mem"
)

// SystemInfo is the structured result of system_info_get. Sizes are bytes,
// the uptime is seconds.
type SystemInfo struct {
	OS              string  `json:"os" jsonschema:"operating system family, e.g. linux, darwin, windows"`
	Platform        string  `json:"platform" jsonschema:"distribution or product, e.g. debian, darwin, Microsoft Windows 11 Pro"`
	PlatformVersion string  `json:"platform_version" jsonschema:"version of the platform"`
	KernelVersion   string  `json:"kernel_version" jsonschema:"version of the OS kernel"`
	Arch            string  `json:"arch" jsonschema:"CPU architecture, e.g. amd64, arm64"`
	Hostname        string  `json:"hostname"`
	CPUModel        string  `json:"cpu_model" jsonschema:"model name of the first CPU"`
	CPUCount        int     `json:"cpu_count" jsonschema:"logical CPUs"`
	MemoryTotal     uint64  `json:"memory_total" jsonschema:"total physical memory in bytes"`
	MemoryAvailable uint64  `json:"memory_available" jsonschema:"memory available to new programs in bytes"`
	MemoryUsedPct   float64 `json:"memory_used_percent" jsonschema:"used memory in percent"`
	UptimeSeconds   uint64  `json:"uptime_seconds" jsonschema:"seconds since boot"`
}

type systemInput struct{}

func addSystemTool(s *sdk.Server) {
	sdk.AddTool(s, &sdk.Tool{
		Name:        "system_info_get",
		Title:       "System information",
		Description: "Reports the operating system, platform and version, CPU architecture and model, logical CPU count, total and available memory (bytes), hostname and uptime (seconds).",
		Annotations: readOnly(),
	}, func(ctx context.Context, req *sdk.CallToolRequest, _ systemInput) (*sdk.CallToolResult, SystemInfo, error) {
		info, err := readSystem(ctx, progressFunc(ctx, req, 3))
		return nil, info, err
	})
}

// readSystem gathers the facts in three steps, reporting each to progress.
func readSystem(ctx context.Context, progress func(step float64, msg string)) (SystemInfo, error) {
	info := SystemInfo{Arch: runtime.GOARCH}
	progress(0, "reading host")
	h, err := host.InfoWithContext(ctx)
	if err != nil && h == nil {
		return SystemInfo{}, fmt.Errorf("system info: host: %v", err)
	}
	info.OS, info.Platform, info.PlatformVersion = h.OS, clip(h.Platform), clip(h.PlatformVersion)
	info.KernelVersion, info.Hostname, info.UptimeSeconds = clip(h.KernelVersion), clip(h.Hostname), h.Uptime
	if h.KernelArch != "" {
		info.Arch = clip(h.KernelArch)
	}

	progress(1, "reading CPU")
	if cs, err := cpu.InfoWithContext(ctx); err == nil && len(cs) > 0 {
		info.CPUModel = clip(cs[0].ModelName)
	}
	if n, err := cpu.CountsWithContext(ctx, true); err == nil {
		info.CPUCount = n
	} else {
		info.CPUCount = runtime.NumCPU()
	}

	progress(2, "reading memory")
	vm, err := mem.VirtualMemoryWithContext(ctx)
	if err != nil {
		return SystemInfo{}, fmt.Errorf("system info: memory: %v", err)
	}
	info.MemoryTotal, info.MemoryAvailable, info.MemoryUsedPct = vm.Total, vm.Available, round1(vm.UsedPercent)
	progress(3, "done")
	return info, ctx.Err()
}

// progressFunc returns a function that sends a progress notification for
// req when the client gave a progress token, and does nothing otherwise.
// Send failures are ignored: progress is advisory.
func progressFunc(ctx context.Context, req *sdk.CallToolRequest, total float64) func(float64, string) {
	token := req.Params.GetProgressToken()
	if token == nil || req.Session == nil {
		return func(float64, string) {}
	}
	return func(step float64, msg string) {
		_ = req.Session.NotifyProgress(ctx, &sdk.ProgressNotificationParams{
			ProgressToken: token, Message: msg, Progress: step, Total: total,
		})
	}
}
