package adbd

import (
	"encoding/binary"
	"io"
	"sync"
)

// Shell v2 packet ids (adb's shell_protocol.h).
const (
	idStdin      = 0
	idStdout     = 1
	idStderr     = 2
	idExit       = 3
	idCloseStdin = 4
	idWindowSize = 5
)

// maxShellPacket bounds one incoming shell v2 packet (stdin from the host
// comes in pieces of at most its maxdata).
const maxShellPacket = 1 << 20

// shellV2 runs a shell,v2 stream: input arrives as stdin / close-stdin
// packets, output leaves as stdout / stderr packets, and the exit code as
// the last packet before CLSE.
func (t *transport) shellV2(s *stream, cmd string) {
	stdin, stdinW := io.Pipe()
	go func() {
		var hdr [5]byte
		for {
			if _, err := io.ReadFull(s.in, hdr[:]); err != nil {
				stdinW.Close()
				return
			}
			n := binary.LittleEndian.Uint32(hdr[1:])
			if n > maxShellPacket {
				stdinW.CloseWithError(io.ErrUnexpectedEOF)
				return
			}
			data := make([]byte, n)
			if _, err := io.ReadFull(s.in, data); err != nil {
				stdinW.Close()
				return
			}
			switch hdr[0] {
			case idStdin:
				stdinW.Write(data)
			case idCloseStdin:
				stdinW.Close()
			}
		}
	}()
	var mu sync.Mutex // stdout and stderr packets must not interleave mid-packet
	out := &packetWriter{s: s, id: idStdout, mu: &mu}
	errw := &packetWriter{s: s, id: idStderr, mu: &mu}
	code := t.h.Shell(s.ctx, cmd, stdin, out, errw)
	stdin.Close()
	mu.Lock()
	s.Write(shellPacket(idExit, []byte{byte(code)}))
	mu.Unlock()
}

func shellPacket(id byte, data []byte) []byte {
	b := make([]byte, 5+len(data))
	b[0] = id
	binary.LittleEndian.PutUint32(b[1:], uint32(len(data)))
	copy(b[5:], data)
	return b
}

// packetWriter wraps each write in shell v2 packets that fit one WRTE.
type packetWriter struct {
	s  *stream
	id byte
	mu *sync.Mutex
}

func (w *packetWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	room := int(w.s.t.maxData) - 5
	n := 0
	for len(p) > 0 {
		chunk := p[:min(len(p), room)]
		if _, err := w.s.Write(shellPacket(w.id, chunk)); err != nil {
			return n, err
		}
		n += len(chunk)
		p = p[len(chunk):]
	}
	return n, nil
}
