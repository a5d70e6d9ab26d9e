// SPDX-License-Identifier: GPL-3.0-or-later
// tls_conn.go - an in-memory connection pair for crypto/tls: each direction is a buffer
// a write appends to and never blocks on, so after the handshake one goroutine can run
// both ends (the server's write, then the client's reads of it), as the C core does.
package main

import (
	"io"
	"net"
	"sync"
	"time"
)

type memPipe struct {
	mu     sync.Mutex
	cond   *sync.Cond
	buf    []byte // written and not yet read: buf[off:]
	off    int
	closed bool
}

func newMemPipe() *memPipe {
	p := &memPipe{}
	p.cond = sync.NewCond(&p.mu)
	return p
}

type memConn struct{ r, w *memPipe }

// memConnPair returns the two ends: what one writes the other reads.
func memConnPair() (net.Conn, net.Conn) {
	a, b := newMemPipe(), newMemPipe()
	return &memConn{r: a, w: b}, &memConn{r: b, w: a}
}

func (c *memConn) Read(p []byte) (int, error) {
	c.r.mu.Lock()
	defer c.r.mu.Unlock()
	for c.r.off == len(c.r.buf) && !c.r.closed {
		c.r.cond.Wait()
	}
	if c.r.off == len(c.r.buf) {
		return 0, io.EOF
	}
	n := copy(p, c.r.buf[c.r.off:])
	c.r.off += n
	if c.r.off == len(c.r.buf) { // all read: the room is used again
		c.r.buf, c.r.off = c.r.buf[:0], 0
	}
	return n, nil
}

func (c *memConn) Write(p []byte) (int, error) {
	c.w.mu.Lock()
	defer c.w.mu.Unlock()
	if c.w.closed {
		return 0, io.ErrClosedPipe
	}
	c.w.buf = append(c.w.buf, p...)
	c.w.cond.Broadcast()
	return len(p), nil
}

func (c *memConn) Close() error {
	for _, p := range []*memPipe{c.r, c.w} {
		p.mu.Lock()
		p.closed = true
		p.cond.Broadcast()
		p.mu.Unlock()
	}
	return nil
}

type memAddr struct{}

func (memAddr) Network() string { return "memory" }
func (memAddr) String() string  { return "memory" }

func (c *memConn) LocalAddr() net.Addr              { return memAddr{} }
func (c *memConn) RemoteAddr() net.Addr             { return memAddr{} }
func (c *memConn) SetDeadline(time.Time) error      { return nil }
func (c *memConn) SetReadDeadline(time.Time) error  { return nil }
func (c *memConn) SetWriteDeadline(time.Time) error { return nil }
