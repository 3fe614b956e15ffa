package app

import (
	"io"
	"log/slog"

	"gopkg.in/natefinch/lumberjack.v2"
)

// Log rotation limits: 5 files of at most 10 MB, kept 30 days.
const (
	logMaxMB      = 10
	logMaxBackups = 5
	logMaxAgeDays = 30
)

// newLogger returns a JSON slog logger writing to a rotating file, and the
// closer of that file. Nothing secret is ever logged: API keys stay in the
// keychain and tool arguments stay in the journal.
func newLogger(path string) (*slog.Logger, io.Closer) {
	w := &lumberjack.Logger{Filename: path, MaxSize: logMaxMB, MaxBackups: logMaxBackups, MaxAge: logMaxAgeDays}
	return slog.New(slog.NewJSONHandler(w, &slog.HandlerOptions{Level: slog.LevelInfo})), w
}
