package peakrss

func isDarwin() bool { return true }
