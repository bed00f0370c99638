package canonical

import (
	"encoding/binary"
	"math"
	"math/bits"
)

//go:generate go run gen_pow10.go

// Shortest float formatting for JSON, after Giulietti's Schubfach ("The
// Schubfach way to render doubles", 2020). strconv finds the same decimal,
// the shortest that reads back as the float and among those the closest
// (ties to an even last digit); doing it here with a fixed 126-bit power of
// ten and writing the digits directly is about twice as fast, and plans are
// mostly floats. FuzzAppendJSONFloat and TestAppendJSONFloatAgrees compare
// every result with encoding/json.

const (
	float64MinNormalC = 1 << 52 // significand of a power of two
	float64MinQ       = -1074   // binary exponent of the smallest subnormal
	pow10TableMinK    = -324
	mask63            = 1<<63 - 1
)

// flog10pow2 is floor(q * log10(2)) for |q| well beyond a float64's range.
func flog10pow2(q int64) int64 { return (q * 661_971_961_083) >> 41 }

// flog10threeQuartersPow2 is floor(log10(3/4 * 2^q)).
func flog10threeQuartersPow2(q int64) int64 { return (q*661_971_961_083 - 274_743_187_321) >> 41 }

// flog2pow10 is floor(e * log2(10)).
func flog2pow10(e int64) int64 { return (e * 913_124_641_741) >> 38 }

// roundToOdd is floor(g * cp / 2^127) with its last bit set when the
// division was inexact, for g = g1*2^63 + g0.
func roundToOdd(g1, g0, cp uint64) uint64 {
	x1, _ := bits.Mul64(g0, cp)
	y1, y0 := bits.Mul64(g1, cp)
	z := y0>>1 + x1
	vbp := y1 + z>>63
	return vbp | (z&mask63+mask63)>>63
}

// shortestDecimal returns d, e with d*10^e the shortest decimal that reads
// back as the positive, finite, normal float64 with the given bits, the
// closest such decimal to it, and on a tie the one with an even d. d may
// still end in zeros.
func shortestDecimal(fbits uint64) (uint64, int64) {
	q := int64(fbits>>52&0x7ff) - 1075
	c := uint64(float64MinNormalC) | fbits&(1<<52-1)
	out := c & 1
	cb := c << 2
	cbr := cb + 2
	var cbl uint64
	var k int64
	if c != float64MinNormalC || q == float64MinQ {
		// The floats either side are equally far away.
		cbl = cb - 2
		k = flog10pow2(q)
	} else {
		// A power of two: the float below is half as far as the one above.
		cbl = cb - 1
		k = flog10threeQuartersPow2(q)
	}
	h := q + flog2pow10(-k) + 2
	g := &pow10Table[k-pow10TableMinK]
	vb := roundToOdd(g[0], g[1], cb<<h)
	vbl := roundToOdd(g[0], g[1], cbl<<h)
	vbr := roundToOdd(g[0], g[1], cbr<<h)
	s := vb >> 2
	if s >= 100 {
		// One digit fewer: the multiples of ten around s. 2^64/10 rounded
		// up makes the high product floor(s/10).
		hi, _ := bits.Mul64(s, 115_292_150_460_684_698<<4)
		sp10 := 10 * hi
		tp10 := sp10 + 10
		upin := vbl+out <= sp10<<2
		wpin := tp10<<2+out <= vbr
		if upin != wpin {
			// Returned as hi or hi+1 tenths: a multiple of ten, one
			// exponent up, saves the caller a division.
			if upin {
				return hi, k + 1
			}
			return hi + 1, k + 1
		}
	}
	t := s + 1
	uin := vbl+out <= s<<2
	win := t<<2+out <= vbr
	if uin != win {
		if uin {
			return s, k
		}
		return t, k
	}
	cmp := int64(vb - (s+t)<<1)
	if cmp < 0 || cmp == 0 && s&1 == 0 {
		return s, k
	}
	return t, k
}

// appendJSONFloatNormal appends a finite, normal, non-zero f by the rules of
// AppendJSONFloat.
func appendJSONFloatNormal(b []byte, f float64) []byte {
	fbits := math.Float64bits(f)
	if fbits>>63 != 0 {
		b = append(b, '-')
		fbits &^= 1 << 63
	}
	d, e := shortestDecimal(fbits)
	for d%10 == 0 {
		d /= 10
		e++
	}
	n := decimalLen(d)
	// dp is where the decimal point goes: the value is 0.digits * 10^dp.
	dp := int(e) + n
	var buf [25]byte
	putDigits(&buf, d, n)
	digits := buf[len(buf)-n:]
	if abs := math.Float64frombits(fbits); abs >= 1e-6 && abs < 1e21 {
		switch {
		case dp > 0 && dp < n:
			// Digits on both sides of the point, the usual coordinate:
			// move the integer digits one left and append once.
			start := len(buf) - n - 1
			copy(buf[start:start+dp], buf[start+1:])
			buf[start+dp] = '.'
			return append(b, buf[start:]...)
		case dp <= 0:
			b = append(b, '0', '.')
			for ; dp < 0; dp++ {
				b = append(b, '0')
			}
			return append(b, digits...)
		}
		b = append(b, digits...)
		for ; n < dp; n++ {
			b = append(b, '0')
		}
		return b
	}
	b = append(b, digits[0])
	if n > 1 {
		b = append(b, '.')
		b = append(b, digits[1:]...)
	}
	b = append(b, 'e')
	exp := dp - 1
	if exp < 0 {
		b = append(b, '-')
		exp = -exp
		if exp < 10 {
			// JSON drops strconv's exponent padding: e-7, not e-07.
			return append(b, byte('0'+exp))
		}
	} else {
		b = append(b, '+')
	}
	if exp < 100 {
		return append(b, twoDigits[2*exp], twoDigits[2*exp+1])
	}
	return append(b, byte('0'+exp/100), twoDigits[2*(exp%100)], twoDigits[2*(exp%100)+1])
}

const twoDigits = "00010203040506070809" +
	"10111213141516171819" +
	"20212223242526272829" +
	"30313233343536373839" +
	"40414243444546474849" +
	"50515253545556575859" +
	"60616263646566676869" +
	"70717273747576777879" +
	"80818283848586878889" +
	"90919293949596979899"

// decimalLen is the number of decimal digits of d > 0.
func decimalLen(d uint64) int {
	t := bits.Len64(d) * 1233 >> 12 // about log10(d), possibly one too many
	if d < pow10Uint64[t] {
		return t
	}
	return t + 1
}

var pow10Uint64 = [...]uint64{1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10,
	1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19}

// putDigits writes the n decimal digits of d at the end of dst, eight at a
// time.
func putDigits(dst *[25]byte, d uint64, n int) {
	binary.LittleEndian.PutUint64(dst[17:25], eightDigits(uint32(d%1e8)))
	if n > 8 {
		d /= 1e8
		binary.LittleEndian.PutUint64(dst[9:17], eightDigits(uint32(d%1e8)))
		if n > 16 {
			// At most 20 digits in a uint64, so this chunk is below 10^4.
			binary.LittleEndian.PutUint64(dst[1:9], eightDigits(uint32(d/1e8)))
		}
	}
}

// eightDigits is v < 10^8 as eight ASCII digits, the first in the lowest
// byte, computed in parallel lanes of one 64-bit word: v splits into two
// four-digit halves (32-bit lanes), each into two pairs (16-bit lanes), each
// pair into two digits (bytes). Division by 100 and by 10 are multiplications
// (by 10486/2^20 and 103/2^10), exact for these ranges, and no lane overflows
// into the next.
func eightDigits(v uint32) uint64 {
	x := uint64(v/10000) | uint64(v%10000)<<32
	hundreds := (x * 10486 >> 20) & 0x0000007f_0000007f
	pairs := hundreds | (x-hundreds*100)<<16
	tens := (pairs * 103 >> 10) & 0x000f_000f_000f_000f
	return tens | (pairs-tens*10)<<8 | 0x3030_3030_3030_3030
}

// appendUint appends v in decimal, as strconv.AppendUint does.
func appendUint(b []byte, v uint64) []byte {
	if v < 100 {
		if v < 10 {
			return append(b, byte('0'+v))
		}
		return append(b, twoDigits[2*v], twoDigits[2*v+1])
	}
	n := decimalLen(v)
	var buf [25]byte
	putDigits(&buf, v, n)
	return append(b, buf[len(buf)-n:]...)
}

// appendInt appends v in decimal, as strconv.AppendInt does.
func appendInt(b []byte, v int64) []byte {
	if v < 0 {
		// -v wraps for the most negative int64, and uint64 of it is right.
		return appendUint(append(b, '-'), uint64(-v))
	}
	return appendUint(b, uint64(v))
}
