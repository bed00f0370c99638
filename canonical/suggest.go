package canonical

import "strings"

// closest returns the candidate nearest to s by edit distance when it is
// close enough to be a likely typo, else "". Used for did-you-mean hints.
func closest(s string, candidates []string) string {
	best, bestD := "", max(1, (len([]rune(s))+1)/3)+1
	for _, c := range candidates {
		if d := editDistance(s, c); d < bestD {
			best, bestD = c, d
		}
	}
	return best
}

// Closest is the exported did-you-mean helper for other packages' keys and
// command names.
func Closest(s string, candidates []string) string { return closest(s, candidates) }

func editDistance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(rb)]
}

// Suggest is the candidate a mistyped name most likely meant: the nearest
// by edit distance, else one with two neighbouring letters swapped, else
// the only candidate it starts.
func Suggest(s string, candidates []string) string {
	if near := closest(s, candidates); near != "" {
		return near
	}
	for _, c := range candidates {
		if swapped(s, c) {
			return c
		}
	}
	prefixed := ""
	for _, c := range candidates {
		if len(s) >= 2 && strings.HasPrefix(c, s) {
			if prefixed != "" {
				return ""
			}
			prefixed = c
		}
	}
	return prefixed
}

// swapped reports whether a is b with two neighbouring letters swapped.
func swapped(a, b string) bool {
	if len(a) != len(b) || a == b {
		return false
	}
	i := 0
	for i < len(a) && a[i] == b[i] {
		i++
	}
	return i+1 < len(a) && a[i] == b[i+1] && a[i+1] == b[i] && a[i+2:] == b[i+2:]
}
