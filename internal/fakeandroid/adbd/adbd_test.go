package adbd

import (
	"bufio"
	"bytes"
	"context"
	"encoding/hex"
	"io"
	"net"
	"os"
	"strings"
	"testing"
	"time"
)

// wmSize answers "wm size" as Android's WindowManagerShellCommand prints it.
type wmSize struct{}

func (wmSize) Shell(ctx context.Context, cmd string, stdin io.Reader, stdout, stderr io.Writer) int {
	if cmd == "wm size" {
		io.WriteString(stdout, "Physical size: 1080x2400\n")
		return 0
	}
	return 127
}
func (wmSize) Exec(context.Context, string, io.Reader, io.Writer) int { return 0 }
func (wmSize) Open(context.Context, string) (io.ReadWriteCloser, error) {
	return nil, os.ErrNotExist
}

// TestTranscript plays the host's side of a captured session and checks
// every byte the device sends.
func TestTranscript(t *testing.T) {
	f, err := os.Open("testdata/shell-v2-wm-size.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go Serve(ctx, l, wmSize{}, Options{MaxData: 0x40000})
	c, err := net.Dial("tcp", l.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	c.SetDeadline(time.Now().Add(10 * time.Second))
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	n := 0
	for sc.Scan() {
		line := sc.Text()
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		n++
		data, err := hex.DecodeString(line[3:])
		if err != nil {
			t.Fatalf("line %d: %v", n, err)
		}
		switch line[:3] {
		case "H: ":
			if _, err := c.Write(data); err != nil {
				t.Fatal(err)
			}
		case "D: ":
			got := make([]byte, len(data))
			if _, err := io.ReadFull(c, got); err != nil {
				t.Fatalf("step %d: the device sent %x then: %v", n, got, err)
			}
			if !bytes.Equal(got, data) {
				t.Fatalf("step %d: the device sent\n %x\nthe capture says\n %x", n, got, data)
			}
		}
	}
}

func TestBadPacketsCloseTheConnection(t *testing.T) {
	for name, raw := range map[string][]byte{
		"bad magic": packet{cmd: cmdCNXN, arg0: Version, arg1: 4096, data: []byte("host::")}.encode()[:20],
		"huge": func() []byte {
			b := packet{cmd: cmdWRTE, arg0: 1, arg1: 1}.encode()
			b[12], b[13], b[14], b[15] = 0xff, 0xff, 0xff, 0x7f
			return b
		}(),
		"open before connect": packet{cmd: cmdOPEN, arg0: 1, data: []byte("shell:true\x00")}.encode(),
	} {
		t.Run(name, func(t *testing.T) {
			l, _ := net.Listen("tcp", "127.0.0.1:0")
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			go Serve(ctx, l, wmSize{}, Options{})
			c, err := net.Dial("tcp", l.Addr().String())
			if err != nil {
				t.Fatal(err)
			}
			defer c.Close()
			if name == "bad magic" {
				raw = append(raw, 0, 0, 0, 0) // magic 0 is wrong for CNXN
			}
			c.Write(raw)
			c.SetReadDeadline(time.Now().Add(5 * time.Second))
			if _, err := io.ReadAll(c); err != nil {
				t.Fatalf("the device must close the connection, not hang: %v", err)
			}
		})
	}
}

func FuzzPackets(f *testing.F) {
	f.Add(packet{cmd: cmdCNXN, arg0: Version, arg1: 4096, data: []byte("host::")}.encode())
	f.Add(packet{cmd: cmdWRTE, arg0: 1, arg1: 2, data: []byte("abc")}.encode())
	f.Fuzz(func(t *testing.T, data []byte) {
		r := bytes.NewReader(data)
		for {
			p, err := readPacket(r, 4096)
			if err != nil {
				return
			}
			if len(p.data) > 4096 {
				t.Fatalf("a %d-byte payload passed a 4096 limit", len(p.data))
			}
			if enc := p.encode(); len(enc) != 24+len(p.data) {
				t.Fatalf("encode length %d", len(enc))
			}
		}
	})
}
