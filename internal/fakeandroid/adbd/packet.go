package adbd

import (
	"encoding/binary"
	"fmt"
	"io"
)

// Commands of the transport protocol (protocol.txt).
const (
	cmdCNXN = 0x4e584e43
	cmdAUTH = 0x48545541
	cmdOPEN = 0x4e45504f
	cmdOKAY = 0x59414b4f
	cmdCLSE = 0x45534c43
	cmdWRTE = 0x45545257
	cmdSTLS = 0x534c5453
)

// Version is the protocol version announced: 0x01000001 lets both sides
// skip payload checksums (adb 29 checks none either way).
const Version = 0x01000001

// DefaultMaxData is the largest payload this device announces, as adbd
// does (MAX_PAYLOAD, 1 MiB); the session uses the smaller of it and the
// host's.
const DefaultMaxData = 1 << 20

// maxIncoming bounds a payload read from the host whatever it claims:
// the host never sends more than the device announced.
const maxIncoming = DefaultMaxData

// packet is one message: a 24-byte little-endian header (command, arg0,
// arg1, payload length, payload byte sum, command^0xffffffff) and its
// payload.
type packet struct {
	cmd, arg0, arg1 uint32
	data            []byte
}

func (p packet) String() string {
	var name [4]byte
	binary.LittleEndian.PutUint32(name[:], p.cmd)
	return fmt.Sprintf("%s(%d, %d, %d bytes)", name[:], p.arg0, p.arg1, len(p.data))
}

func checksum(b []byte) uint32 {
	var s uint32
	for _, c := range b {
		s += uint32(c)
	}
	return s
}

func (p packet) encode() []byte {
	b := make([]byte, 24+len(p.data))
	binary.LittleEndian.PutUint32(b[0:], p.cmd)
	binary.LittleEndian.PutUint32(b[4:], p.arg0)
	binary.LittleEndian.PutUint32(b[8:], p.arg1)
	binary.LittleEndian.PutUint32(b[12:], uint32(len(p.data)))
	binary.LittleEndian.PutUint32(b[16:], checksum(p.data))
	binary.LittleEndian.PutUint32(b[20:], p.cmd^0xffffffff)
	copy(b[24:], p.data)
	return b
}

// readPacket reads one packet, refusing a bad magic or a payload over
// limit before allocating it.
func readPacket(r io.Reader, limit uint32) (packet, error) {
	var h [24]byte
	if _, err := io.ReadFull(r, h[:]); err != nil {
		return packet{}, err
	}
	p := packet{
		cmd:  binary.LittleEndian.Uint32(h[0:]),
		arg0: binary.LittleEndian.Uint32(h[4:]),
		arg1: binary.LittleEndian.Uint32(h[8:]),
	}
	n := binary.LittleEndian.Uint32(h[12:])
	if magic := binary.LittleEndian.Uint32(h[20:]); magic != p.cmd^0xffffffff {
		return packet{}, fmt.Errorf("bad magic %#x for command %#x", magic, p.cmd)
	}
	if n > limit {
		return packet{}, fmt.Errorf("%s payload of %d bytes exceeds %d", p, n, limit)
	}
	p.data = make([]byte, n)
	if _, err := io.ReadFull(r, p.data); err != nil {
		return packet{}, fmt.Errorf("%s payload cut short: %w", p, err)
	}
	return p, nil
}
