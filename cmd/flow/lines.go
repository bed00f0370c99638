package main

import (
	"bufio"
	"errors"
	"io"
)

// maxLine is the longest line `flow plan --jsonl` and `flow mcp` on stdio
// read whole: 16 MiB, the bound the MCP SDK puts on a message. A longer line
// is answered with an error and the rest of it is read and dropped, so one
// huge line costs no more memory than this and ends nothing.
const maxLine = 16 << 20

// lineReader splits its input into lines as bufio.ScanLines does (a final
// line without a newline counts, a \r before the newline is dropped) but,
// unlike bufio.Scanner, does not stop at a line longer than its bound: it
// keeps the line's first max bytes, reads past the rest and reports the
// line's size.
type lineReader struct {
	r    *bufio.Reader
	max  int
	line []byte
}

func newLineReader(r io.Reader, max int) *lineReader {
	return newLineReaderSize(r, max, 64<<10)
}

func newLineReaderSize(r io.Reader, max, buffer int) *lineReader {
	return &lineReader{r: bufio.NewReaderSize(r, buffer), max: max}
}

// next returns the next line and its size in bytes. When size is over the
// bound, text is only the line's first max bytes. text is valid until the
// next call. At the end of the input the error is io.EOF.
func (l *lineReader) next() (text []byte, size int, err error) {
	l.line = l.line[:0]
	var prev byte // the last byte of the previous fragment
	for {
		frag, err := l.r.ReadSlice('\n')
		size += len(frag)
		// Keep up to the bound plus "\r\n"; past that the line is too
		// long whatever follows.
		if room := l.max + 2 - len(l.line); room > 0 {
			l.line = append(l.line, frag[:min(len(frag), room)]...)
		}
		switch {
		case errors.Is(err, bufio.ErrBufferFull):
			if len(frag) > 0 {
				prev = frag[len(frag)-1]
			}
			continue
		case err == nil: // frag ends with the newline
			size--
			if len(frag) >= 2 && frag[len(frag)-2] == '\r' || len(frag) == 1 && prev == '\r' {
				size--
			}
		case errors.Is(err, io.EOF):
			if size == 0 {
				return nil, 0, io.EOF
			}
			if last := frag; len(last) > 0 && last[len(last)-1] == '\r' || len(last) == 0 && prev == '\r' {
				size--
			}
		default:
			return nil, 0, err
		}
		if size > l.max {
			return l.line[:l.max], size, nil
		}
		return l.line[:size], size, nil
	}
}

// idle reports whether no input is waiting in the buffer: the next line
// needs a read, which may wait for the writer.
func (l *lineReader) idle() bool { return l.r.Buffered() == 0 }
