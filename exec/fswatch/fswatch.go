package fswatch

import (
	"context"
	"crypto/sha256"
	"io"
	"os"
	"sort"
	"time"
)

// DefaultInterval is how often files are looked at: a save shows within
// a quarter second, well under the time a rerun takes to start.
const DefaultInterval = 250 * time.Millisecond

// state is what a file looked like: absent, or its size, modification
// time and content digest. The digest catches a save within the file
// system's timestamp granularity (a second on some) that keeps the size.
type state struct {
	exists bool
	size   int64
	mod    time.Time
	sum    [sha256.Size]byte
}

// Snapshot is the state of a set of files at one moment.
type Snapshot map[string]state

// Take reads the state of every path now. A path that cannot be read is
// recorded as absent, so its appearance is a change.
func Take(paths []string) Snapshot {
	s := Snapshot{}
	for _, p := range paths {
		s[p] = look(p)
	}
	return s
}

func look(path string) state {
	info, err := os.Stat(path)
	if err != nil || info.IsDir() {
		return state{}
	}
	st := state{exists: true, size: info.Size(), mod: info.ModTime()}
	f, err := os.Open(path)
	if err != nil {
		return state{}
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return state{}
	}
	copy(st.sum[:], h.Sum(nil))
	return st
}

// Changed lists the paths whose state differs between s and now (sorted).
func (s Snapshot) Changed(now Snapshot) []string {
	var out []string
	for p, st := range now {
		if old, ok := s[p]; !ok || old != st {
			out = append(out, p)
		}
	}
	for p := range s {
		if _, ok := now[p]; !ok {
			out = append(out, p)
		}
	}
	sort.Strings(out)
	return out
}

// Wait returns the paths of since that changed, as soon as one has: it
// looks every interval (DefaultInterval when zero) until then, or returns
// ctx's error when ctx ends first.
func Wait(ctx context.Context, since Snapshot, interval time.Duration) ([]string, error) {
	if interval <= 0 {
		interval = DefaultInterval
	}
	paths := make([]string, 0, len(since))
	for p := range since {
		paths = append(paths, p)
	}
	t := time.NewTicker(interval)
	defer t.Stop()
	for {
		if changed := since.Changed(Take(paths)); len(changed) > 0 {
			return changed, nil
		}
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-t.C:
		}
	}
}
