package canonical

import (
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
// closest such decimal to it, and on a tie the one with an even d.
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
			if upin {
				return sp10, k
			}
			return tp10, k
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
	// The digits of d, most significant first, in buf[i:]: eight at a time
	// in 32-bit arithmetic, which is cheaper than 64-bit division.
	var buf [24]byte
	i := len(buf)
	for d >= 1e8 {
		i -= 8
		put8Digits(buf[i:i+8], uint32(d%1e8))
		d /= 1e8
	}
	for lo := uint32(d); ; {
		if lo < 10 {
			i--
			buf[i] = byte('0' + lo)
			break
		}
		if lo < 100 {
			i -= 2
			buf[i], buf[i+1] = twoDigits[2*lo], twoDigits[2*lo+1]
			break
		}
		r := lo % 100
		lo /= 100
		i -= 2
		buf[i], buf[i+1] = twoDigits[2*r], twoDigits[2*r+1]
	}
	digits := buf[i:]
	n := int64(len(digits))
	// dp is where the decimal point goes: the value is 0.digits * 10^dp.
	dp := e + n
	abs := math.Float64frombits(fbits)
	if abs >= 1e-6 && abs < 1e21 {
		if dp <= 0 {
			b = append(b, '0', '.')
			for ; dp < 0; dp++ {
				b = append(b, '0')
			}
			return append(b, digits...)
		}
		if dp >= n {
			b = append(b, digits...)
			for ; n < dp; n++ {
				b = append(b, '0')
			}
			return b
		}
		b = append(b, digits[:dp]...)
		b = append(b, '.')
		return append(b, digits[dp:]...)
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
	} else {
		b = append(b, '+')
	}
	// At least two exponent digits above, as strconv writes them; JSON drops
	// the padding of a negative exponent (e-7, not e-07).
	switch {
	case exp < 10 && dp-1 < 0:
		return append(b, byte('0'+exp))
	case exp < 100:
		return append(b, twoDigits[2*exp], twoDigits[2*exp+1])
	}
	return append(b, byte('0'+exp/100), twoDigits[2*(exp%100)], twoDigits[2*(exp%100)+1])
}

// put8Digits writes v < 10^8 as exactly eight digits, with leading zeros.
func put8Digits(dst []byte, v uint32) {
	_ = dst[7]
	hi, lo := v/10000, v%10000
	a, b, c, d := hi/100, hi%100, lo/100, lo%100
	dst[0], dst[1] = twoDigits[2*a], twoDigits[2*a+1]
	dst[2], dst[3] = twoDigits[2*b], twoDigits[2*b+1]
	dst[4], dst[5] = twoDigits[2*c], twoDigits[2*c+1]
	dst[6], dst[7] = twoDigits[2*d], twoDigits[2*d+1]
}
