package canonical

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
