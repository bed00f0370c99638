//go:build linux

package peakrss_test

import (
	"os"
	osexec "os/exec"
	"strconv"
	"syscall"
	"testing"

	"github.com/flow-runner/flow/internal/peakrss"
)

const hogEnv = "FLOW_TEST_PEAKRSS_HOG"

var ballast []byte

func TestMain(m *testing.M) {
	if code, ok := peakrss.Launch(); ok {
		os.Exit(code)
	}
	if mb, err := strconv.Atoi(os.Getenv(hogEnv)); err == nil {
		hog := make([]byte, mb<<20)
		for i := range hog {
			hog[i] = 1
		}
		os.Exit(int(hog[len(hog)/2]) - 1)
	}
	os.Exit(m.Run())
}

// TestWrapMeasuresTheChildAlone: with this test process holding 300 MB,
// the plain ru_maxrss of a child that allocates nothing reports the
// parent's 300 MB; the wrapped measure stays small, and still sees the
// child's own 200 MB when it fills them.
func TestWrapMeasuresTheChildAlone(t *testing.T) {
	ballast = make([]byte, 300<<20)
	for i := range ballast {
		ballast[i] = 1
	}
	run := func(wrap bool, mb int) int64 {
		cmd := osexec.Command(os.Args[0], "-test.run=^$")
		cmd.Env = append(os.Environ(), hogEnv+"="+strconv.Itoa(mb))
		var p *peakrss.Probe
		if wrap {
			p = peakrss.Wrap(cmd, t.TempDir())
		}
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("%v: %s", err, out)
		}
		if !wrap {
			return cmd.ProcessState.SysUsage().(*syscall.Rusage).Maxrss << 10
		}
		n, err := p.Bytes()
		if err != nil {
			t.Fatal(err)
		}
		return n
	}
	plain, wrapped := run(false, 1), run(true, 1)
	t.Logf("plain ru_maxrss %d MB, wrapped %d MB", plain>>20, wrapped>>20)
	if wrapped > 100<<20 {
		t.Errorf("wrapped peak %d MB for a child that allocates nothing", wrapped>>20)
	}
	if plain < 250<<20 {
		t.Logf("this kernel does not carry the parent's mark into the child (plain %d MB); the wrap is then only a detour", plain>>20)
	}
	if hog := run(true, 200); hog < 200<<20 || hog > 300<<20 {
		t.Errorf("wrapped peak %d MB for a child that fills 200 MB", hog>>20)
	}
	ballast = nil
}
