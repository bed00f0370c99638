package adbd

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"
)

// Sync protocol limits (adb's file_sync_protocol.h): a path is at most
// 1024 bytes, a DATA chunk at most 64 KiB.
const (
	syncPathMax = 1024
	syncDataMax = 64 << 10
	// maxFile bounds one pushed file kept in memory.
	maxFile = 512 << 20
)

// serveSync answers sync: requests (STAT, STA2, LST2, LIST, SEND, RECV,
// QUIT) over the stream's byte stream; requests and DATA chunks may cross
// WRTE boundaries, which the pipe hides.
func serveSync(s *stream, fsys *MemFS) {
	r := s.in
	for {
		id, arg, err := readSyncHeader(r)
		if err != nil {
			return
		}
		if id == "QUIT" {
			return
		}
		if arg > syncPathMax {
			syncFail(s, fmt.Sprintf("path too long (%d bytes)", arg))
			return
		}
		buf := make([]byte, arg)
		if _, err := io.ReadFull(r, buf); err != nil {
			return
		}
		name := string(buf)
		switch id {
		case "STAT":
			e, ok := fsys.stat(name)
			out := []byte("STAT")
			if ok {
				out = le32(out, e.mode, uint32(e.size), uint32(e.mtime.Unix()))
			} else {
				out = le32(out, 0, 0, 0)
			}
			s.Write(out)
		case "STA2", "LST2":
			s.Write(stat2(id, fsys, name))
		case "LIST":
			names, ents, _ := fsys.list(name)
			var b bytes.Buffer
			for i, n := range names {
				b.Write(le32([]byte("DENT"), ents[i].mode, uint32(ents[i].size), uint32(ents[i].mtime.Unix()), uint32(len(n))))
				b.WriteString(n)
			}
			b.Write(le32([]byte("DONE"), 0, 0, 0, 0))
			s.Write(b.Bytes())
		case "SEND":
			if !receiveFile(s, r, fsys, name) {
				return
			}
		case "RECV":
			data, err := fsys.ReadFile(name)
			if err != nil {
				syncFail(s, "No such file or directory")
				continue
			}
			for len(data) > 0 {
				chunk := data[:min(len(data), syncDataMax)]
				s.Write(append(le32([]byte("DATA"), uint32(len(chunk))), chunk...))
				data = data[len(chunk):]
			}
			s.Write(le32([]byte("DONE"), 0))
		default:
			syncFail(s, "unknown sync request "+strconv.Quote(id))
			return
		}
	}
}

func readSyncHeader(r io.Reader) (string, uint32, error) {
	var h [8]byte
	if _, err := io.ReadFull(r, h[:]); err != nil {
		return "", 0, err
	}
	return string(h[:4]), binary.LittleEndian.Uint32(h[4:]), nil
}

func le32(b []byte, vs ...uint32) []byte {
	for _, v := range vs {
		b = binary.LittleEndian.AppendUint32(b, v)
	}
	return b
}

func syncFail(s *stream, msg string) {
	s.Write(append(le32([]byte("FAIL"), uint32(len(msg))), msg...))
}

// stat2 is the 72-byte STA2/LST2 reply: id, error, dev, ino, mode, nlink,
// uid, gid, size, atime, mtime, ctime; error 2 (ENOENT) for a missing path.
func stat2(id string, fsys *MemFS, name string) []byte {
	b := []byte(id)
	e, ok := fsys.stat(name)
	if !ok {
		b = le32(b, 2)
		return append(b, make([]byte, 72-len(b))...)
	}
	b = le32(b, 0)
	b = binary.LittleEndian.AppendUint64(b, 0) // dev
	b = binary.LittleEndian.AppendUint64(b, 0) // ino
	b = le32(b, e.mode, 1, 2000, 2000)         // mode, nlink, uid, gid (shell)
	b = binary.LittleEndian.AppendUint64(b, e.size)
	t := uint64(e.mtime.Unix())
	b = binary.LittleEndian.AppendUint64(b, t) // atime
	b = binary.LittleEndian.AppendUint64(b, t) // mtime
	b = binary.LittleEndian.AppendUint64(b, t) // ctime
	return b
}

// receiveFile reads a SEND's DATA chunks up to DONE and stores the file.
// It reports whether the session may go on.
func receiveFile(s *stream, r io.Reader, fsys *MemFS, spec string) bool {
	name, modeText := spec, "33188"
	if i := strings.LastIndexByte(spec, ','); i >= 0 {
		name, modeText = spec[:i], spec[i+1:]
	}
	mode, err := strconv.ParseUint(modeText, 10, 32)
	if err != nil {
		mode = 0o100644
	}
	var data bytes.Buffer
	for {
		id, arg, err := readSyncHeader(r)
		if err != nil {
			return false
		}
		switch id {
		case "DATA":
			if arg > syncDataMax || data.Len()+int(arg) > maxFile {
				syncFail(s, "file too large for the fake device")
				return false
			}
			if _, err := io.CopyN(&data, r, int64(arg)); err != nil {
				return false
			}
		case "DONE":
			if err := fsys.write(name, data.Bytes(), uint32(mode), time.Unix(int64(arg), 0)); err != nil {
				syncFail(s, err.Error())
				return true
			}
			s.Write(le32([]byte("OKAY"), 0))
			return true
		default:
			syncFail(s, "unexpected "+strconv.Quote(id)+" during SEND")
			return false
		}
	}
}
