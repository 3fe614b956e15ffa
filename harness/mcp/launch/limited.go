package launch

// limited keeps the first 1 MiB written to it and drops the rest: a login
// shell's stdout, where rc files may print without end.
type limited struct{ b []byte }

const shellOutputLimit = 1 << 20

func (l *limited) Write(p []byte) (int, error) {
	if room := shellOutputLimit - len(l.b); room > 0 {
		if len(p) > room {
			l.b = append(l.b, p[:room]...)
		} else {
			l.b = append(l.b, p...)
		}
	}
	return len(p), nil
}
