package device

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/shirou/gopsutil/v4/disk"
)

// DiskInput is the argument of disk_usage_get.
type DiskInput struct {
	Path string `json:"path,omitempty" jsonschema:"an absolute path on the file system to measure; default: the user's home folder (or the root folder when there is none)"`
}

// DiskUsage is the structured result of disk_usage_get. Sizes are bytes.
type DiskUsage struct {
	Path        string  `json:"path" jsonschema:"the path measured"`
	FSType      string  `json:"fstype" jsonschema:"file system type, when known"`
	Total       uint64  `json:"total" jsonschema:"size of the file system in bytes"`
	Used        uint64  `json:"used" jsonschema:"bytes in use"`
	Free        uint64  `json:"free" jsonschema:"bytes free for unprivileged users"`
	UsedPercent float64 `json:"used_percent" jsonschema:"used space in percent"`
}

func addDiskTool(s *sdk.Server) {
	sdk.AddTool(s, &sdk.Tool{
		Name:        "disk_usage_get",
		Title:       "Disk usage",
		Description: "Reports total, used and free bytes and the used percentage of the file system holding a path (default: the home folder).",
		Annotations: readOnly(),
	}, func(ctx context.Context, _ *sdk.CallToolRequest, in DiskInput) (*sdk.CallToolResult, DiskUsage, error) {
		u, err := readDisk(ctx, in.Path)
		return nil, u, err
	})
}

func defaultDiskPath() string {
	if home, err := os.UserHomeDir(); err == nil && home != "" {
		return home
	}
	if runtime.GOOS == "windows" {
		return os.Getenv("SystemDrive") + `\`
	}
	return "/"
}

func readDisk(ctx context.Context, path string) (DiskUsage, error) {
	if path == "" {
		path = defaultDiskPath()
	}
	if !filepath.IsAbs(path) {
		return DiskUsage{}, fmt.Errorf("path %q is not absolute; give an absolute path such as %q", clip(path), defaultDiskPath())
	}
	if _, err := os.Stat(path); err != nil {
		return DiskUsage{}, fmt.Errorf("path %q: %v", clip(path), describeStatErr(err))
	}
	u, err := disk.UsageWithContext(ctx, path)
	if err != nil {
		return DiskUsage{}, fmt.Errorf("disk usage of %q: %v", clip(path), err)
	}
	return DiskUsage{
		Path: clip(path), FSType: clip(u.Fstype), Total: u.Total, Used: u.Used, Free: u.Free,
		UsedPercent: round1(u.UsedPercent),
	}, nil
}

func describeStatErr(err error) string {
	switch {
	case os.IsNotExist(err):
		return "no such file or folder"
	case os.IsPermission(err):
		return "permission denied"
	}
	return err.Error()
}
