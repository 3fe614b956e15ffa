package mcp

import (
	"context"
	"errors"
	"io"
	"os"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// stdioTransport is the sdk.Transport of a stdio provider. The SDK's
// CommandTransport ends the connection on the first stdout line that is
// not JSON-RPC; this one skips such lines (stdout.go) and otherwise speaks
// the same newline-delimited JSON-RPC.
type stdioTransport struct {
	proc    *stdioProcess
	observe func(jsonrpc.Message) // sees each message in wire order (progress.go)
}

// Connect starts the process with its stdin and stdout on pipes, puts it
// in a process tree (proc_*.go), and starts reading its stdout.
func (t *stdioTransport) Connect(ctx context.Context) (sdk.Connection, error) {
	s := t.proc
	inR, inW, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		inR.Close()
		inW.Close()
		return nil, err
	}
	// *os.File ends, so os/exec starts no copying goroutine and its Wait
	// never closes the stdout we read: a response written just before the
	// process exits is still read.
	s.cmd.Stdin, s.cmd.Stdout = inR, outW
	err = s.cmd.Start()
	inR.Close()
	outW.Close()
	if err != nil {
		inW.Close()
		outR.Close()
		return nil, err
	}
	pid := s.cmd.Process.Pid
	ownChildren.add(pid)
	go func() {
		s.waitErr = s.cmd.Wait()
		ownChildren.remove(pid)
		close(s.exited)
	}()
	tree, err := newProcTree(s.cmd)
	if err != nil {
		s.cmd.Process.Kill()
		<-s.exited
		inW.Close()
		outR.Close()
		return nil, err
	}
	s.mu.Lock()
	s.tree = tree
	s.mu.Unlock()
	c := &stdioConn{
		proc:     s,
		stdin:    inW,
		stdout:   outR,
		incoming: make(chan jsonrpc.Message),
		readDone: make(chan struct{}),
		closed:   make(chan struct{}),
	}
	s.mu.Lock()
	s.conn = c
	s.mu.Unlock()
	go c.readLoop(t.observe)
	return c, nil
}

// stdioConn is one provider's JSON-RPC connection over its stdin and
// stdout (an sdk.Connection).
type stdioConn struct {
	proc   *stdioProcess
	stdin  *os.File
	stdout *os.File

	incoming chan jsonrpc.Message // unbuffered: readDone closes after the last send
	readDone chan struct{}
	readErr  error // why reading ended; set before readDone closes

	writeMu sync.Mutex

	raw rawPending // the raw side channel's requests (rawcall.go)

	closeOnce sync.Once
	closed    chan struct{}
	closeErr  error
}

// readLoop reads stdout until it ends, handing each message to Read in
// order and skipping lines that are not JSON-RPC.
func (c *stdioConn) readLoop(observe func(jsonrpc.Message)) {
	defer close(c.readDone)
	lr := newLineReader(c.stdout, maxMessageLine)
	lr.partial = c.proc.noise.partial
	for {
		line, isJSON, size, err := lr.next()
		if err != nil {
			c.readErr = err
			if errors.Is(err, errLineTooLong) {
				c.proc.noise.fail(err)
			}
			return
		}
		var msgs []jsonrpc.Message
		derr := errNotJSON
		if isJSON {
			msgs, derr = decodeLine(line)
		}
		if derr != nil {
			c.proc.noise.skip(line, lr.cut, size, derr)
			continue
		}
		for _, m := range msgs {
			if c.raw.take(m) { // a response of the raw side channel
				continue
			}
			if observe != nil {
				observe(m)
			}
			select {
			case c.incoming <- m:
			case <-c.closed:
				c.readErr = io.EOF
				return
			}
		}
	}
}

var errNotJSON = errors.New("not JSON")

func (c *stdioConn) Read(ctx context.Context) (jsonrpc.Message, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	select {
	case <-ctx.Done():
		return nil, ctx.Err()
	case m := <-c.incoming:
		return m, nil
	case <-c.readDone:
		return nil, c.readErr
	case <-c.closed:
		return nil, io.EOF
	}
}

func (c *stdioConn) Write(ctx context.Context, msg jsonrpc.Message) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	data, err := jsonrpc.EncodeMessage(msg)
	if err != nil {
		return err
	}
	data = append(data, '\n')
	c.writeMu.Lock()
	defer c.writeMu.Unlock()
	_, err = c.stdin.Write(data)
	return err
}

// Close shuts the provider down as MCP asks: it closes its stdin, lets it
// exit for up to closeGrace, then kills its whole process tree. It returns
// the process's exit (cmd.Wait's error).
func (c *stdioConn) Close() error {
	c.closeOnce.Do(func() {
		close(c.closed)
		c.stdin.Close()
		s := c.proc
		select {
		case <-s.exited:
		case <-time.After(closeGrace):
			s.procTree().kill()
			<-s.exited // WaitDelay bounds the wait for stderr
		}
		// Read what the process wrote before it exited (a start error
		// quotes its noise lines), then stop reading: a grandchild may
		// still hold stdout open, so the wait is bounded.
		select {
		case <-c.readDone:
		case <-time.After(stdoutDrain):
		}
		c.stdout.Close()
		c.closeErr = s.waitErr
	})
	return c.closeErr
}

func (c *stdioConn) SessionID() string { return "" }

// stdoutDrain bounds how long Close waits, once the process has exited,
// for the rest of its stdout (the end of the pipe, unless a grandchild
// holds it open).
const stdoutDrain = 500 * time.Millisecond
