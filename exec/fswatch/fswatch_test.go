package fswatch

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"testing"
	"time"
)

// TestWaitSeesSaves: an edit in place that keeps the size and the
// timestamp (a save within the file system's time granularity), a file
// renamed over the watched one (how many editors save), a removal and a
// creation are each seen; an untouched file never is.
func TestWaitSeesSaves(t *testing.T) {
	dir := t.TempDir()
	a, b, c := filepath.Join(dir, "a.yaml"), filepath.Join(dir, "b.yaml"), filepath.Join(dir, "c.yaml")
	write := func(p, s string) {
		t.Helper()
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(a, "- tapOn: A\n")
	write(b, "- tapOn: B\n")
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	steps := []struct {
		name   string
		change func()
		want   []string
	}{
		{"same size, same mtime", func() {
			info, _ := os.Stat(a)
			write(a, "- tapOn: Z\n")
			_ = os.Chtimes(a, info.ModTime(), info.ModTime())
		}, []string{a}},
		{"renamed over", func() {
			tmp := filepath.Join(dir, ".b.swp")
			write(tmp, "- tapOn: BB\n")
			if err := os.Rename(tmp, b); err != nil {
				t.Fatal(err)
			}
		}, []string{b}},
		{"removed", func() { _ = os.Remove(a) }, []string{a}},
		{"created", func() { write(c, "x") }, []string{c}},
	}
	for _, s := range steps {
		snap := Take([]string{a, b, c})
		s.change()
		got, err := Wait(ctx, snap, 10*time.Millisecond)
		if err != nil || !reflect.DeepEqual(got, s.want) {
			t.Fatalf("%s: got %v, %v; want %v", s.name, got, err, s.want)
		}
	}
}

// TestWaitEndsWithContext: with nothing changing, Wait returns ctx's error
// once ctx ends, and no path.
func TestWaitEndsWithContext(t *testing.T) {
	p := filepath.Join(t.TempDir(), "f")
	_ = os.WriteFile(p, []byte("x"), 0o644)
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	got, err := Wait(ctx, Take([]string{p}), 5*time.Millisecond)
	if err != context.DeadlineExceeded || got != nil {
		t.Fatalf("got %v, %v", got, err)
	}
}
