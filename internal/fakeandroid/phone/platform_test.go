package phone

import (
	"bytes"
	"context"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/flow-runner/flow/exec"
)

// sh runs one command line on the phone: exit code, stdout, stderr.
func sh(p *Phone, line string) (int, string, string) {
	var out, errb bytes.Buffer
	code := p.Shell(context.Background(), line, strings.NewReader(""), &out, &errb)
	return code, out.String(), errb.String()
}

// ln -s fails when the link exists (the atomic step of flow's device
// lock); readlink reads the target; rm removes the link.
func TestSymlinkLock(t *testing.T) {
	p := New(Options{})
	defer p.Close()
	const link = "/data/local/tmp/flow-helper.lock"
	if code, _, errb := sh(p, "ln -s 'owner?a=1&b=2' "+link); code != 0 {
		t.Fatalf("first ln: exit %d %s", code, errb)
	}
	if code, _, errb := sh(p, "ln -s other "+link); code != 1 || !strings.Contains(errb, "File exists") {
		t.Fatalf("second ln: exit %d %q; want 1 and File exists", code, errb)
	}
	if code, out, _ := sh(p, "readlink "+link); code != 0 || out != "owner?a=1&b=2\n" {
		t.Fatalf("readlink: exit %d %q", code, out)
	}
	sh(p, "rm -f "+link)
	if code, out, _ := sh(p, "readlink "+link); code != 1 || out != "" {
		t.Fatalf("readlink after rm: exit %d %q; want 1 and nothing", code, out)
	}
}

// A second am instrument force-stops the running helper (AOSP
// ActivityManagerService.startInstrumentation): the first instrumentation's
// stream ends and its socket is gone; pidof names the new process.
func TestInstrumentForceStopsARunningHelper(t *testing.T) {
	p := New(Options{HelperAPK: []byte("helper")})
	defer p.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if code, _, _ := sh(p, "pidof dev.flow.helper"); code != 1 {
		t.Fatalf("pidof before any start: exit %d", code)
	}
	first := make(chan string, 1)
	go func() {
		var out bytes.Buffer
		p.Shell(ctx, "am instrument -w -e socket one dev.flow.helper/.FlowInstrumentation", strings.NewReader(""), &out, io.Discard)
		first <- out.String()
	}()
	waitSocket(t, p, "one")
	_, pid1, _ := sh(p, "pidof dev.flow.helper")
	go p.Shell(ctx, "am instrument -w -e socket two dev.flow.helper/.FlowInstrumentation", strings.NewReader(""), io.Discard, io.Discard)
	select {
	case out := <-first:
		if !strings.Contains(out, "INSTRUMENTATION_CODE") {
			t.Fatalf("the first instrumentation ended without its result: %q", out)
		}
	case <-ctx.Done():
		t.Fatal("the second am instrument left the first helper running")
	}
	waitSocket(t, p, "two")
	if c, err := p.Open(ctx, "localabstract:one"); err == nil {
		c.Close()
		t.Fatal("the first helper's socket still accepts")
	}
	if code, pid2, _ := sh(p, "pidof dev.flow.helper"); code != 0 || pid2 == pid1 || pid2 == "" {
		t.Fatalf("pidof after the restart: exit %d %q (before %q)", code, pid2, pid1)
	}
}

func waitSocket(t *testing.T, p *Phone, name string) {
	t.Helper()
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		if c, err := p.Open(context.Background(), "localabstract:"+name); err == nil {
			c.Close()
			return
		}
	}
	t.Fatalf("the helper never opened %s", name)
}

// A toast shows as Maestro's synthetic node, after the window root, with
// class android.widget.Toast, empty package and id and empty bounds, for
// 3.5 s of the phone's clock, then no more.
func TestToastNodeFor3500ms(t *testing.T) {
	clock := exec.NewVirtualClock(time.Date(2026, 12, 6, 3, 0, 0, 0, time.UTC))
	p := New(Options{Clock: clock})
	defer p.Close()
	read := func() string {
		res, err := p.hierarchy(context.Background(), fields{})
		if err != nil {
			t.Fatal(err)
		}
		return res["xml"].(string)
	}
	if strings.Contains(read(), "android.widget.Toast") {
		t.Fatal("a toast node before any toast")
	}
	p.ShowToast("Saved")
	want := `<node index="0" text="Saved" resource-id="" class="android.widget.Toast" package="" content-desc="" checkable="false" checked="false" clickable="false" enabled="true" focusable="false" focused="false" scrollable="false" long-clickable="false" password="false" selected="false" visible-to-user="true" bounds="[0,0][0,0]" hintText="" />`
	clock.Advance(3500 * time.Millisecond)
	if x := read(); !strings.Contains(x, want) || !strings.HasSuffix(x, want+"\n</hierarchy>\n") {
		t.Fatalf("at 3.5 s the toast node is not the last node as Maestro writes it:\n%s", x)
	}
	clock.Advance(time.Millisecond)
	if x := read(); strings.Contains(x, "android.widget.Toast") {
		t.Fatalf("the toast outlived 3.5 s:\n%s", x)
	}
}

// SystemUI's events keep coming while the app is still (the status bar):
// the helper's eventSeq moves with them, but settle waits for the app's
// events only, so a still app settles in one quiet window.
func TestSettleIgnoresSystemUIEvents(t *testing.T) {
	clock := exec.NewVirtualClock(time.Date(2026, 12, 6, 3, 0, 0, 0, time.UTC))
	p := New(Options{Clock: clock, SystemUIEvery: 50 * time.Millisecond})
	defer p.Close()
	start := clock.Now()
	res, err := p.settle(context.Background(), fields{"quietMs": []byte("200"), "timeoutMs": []byte("3000")})
	if err != nil {
		t.Fatal(err)
	}
	if res["still"] != true {
		t.Fatalf("a still app with SystemUI ticking did not settle: %v", res["still"])
	}
	if took := clock.Now().Sub(start); took > 400*time.Millisecond {
		t.Fatalf("settling took %s; SystemUI's events held it", took)
	}
	if _, leaked := res[appSeqKey]; leaked {
		t.Fatal("the app's own count leaked into the answer")
	}
	before := res["eventSeq"]
	clock.Advance(time.Second)
	after, _ := p.hierarchy(context.Background(), fields{})
	if after["eventSeq"] == before {
		t.Fatalf("SystemUI's events do not move eventSeq (%v)", before)
	}
}

// On API 30+ the first DOWN after a transition (here a launch) waits for
// the window animation; the helper reports the wait as downWaitMs and the
// next touch goes at once. Below API 30 nothing waits.
func TestDownWaitsAfterATransition(t *testing.T) {
	for _, tc := range []struct {
		sdk  string
		want int64
	}{{"34", 400}, {"29", 0}} {
		clock := exec.NewVirtualClock(time.Date(2026, 12, 6, 3, 0, 0, 0, time.UTC))
		p := New(Options{Clock: clock, DownWaitAfterTransition: 400 * time.Millisecond, Props: map[string]string{"ro.build.version.sdk": tc.sdk}})
		ctx := context.Background()
		if _, _, err := p.launch(ctx, fields{"pkg": []byte(`"com.example.shop"`)}); err != nil {
			t.Fatal(err)
		}
		tap := []byte(`{"protocol":"android-touch-plan-v1","kind":"swipe","durationMs":50,"pointers":[{"pointerId":0,"samples":[{"offsetMs":0,"x":10,"y":10},{"offsetMs":50,"x":10,"y":10}]}]}`)
		var waits []int64
		for i := 0; i < 2; i++ {
			before := clock.Now()
			res, err := p.touch(ctx, tap)
			if err != nil {
				t.Fatal(err)
			}
			w, _ := res["downWaitMs"].(int64)
			waits = append(waits, w)
			if took := clock.Now().Sub(before); took < time.Duration(w)*time.Millisecond {
				t.Errorf("API %s: the touch said it waited %d ms but took %s", tc.sdk, w, took)
			}
		}
		if waits[0] != tc.want || waits[1] != 0 {
			t.Errorf("API %s: DOWN waits %v, want [%d 0]", tc.sdk, waits, tc.want)
		}
		p.Close()
	}
}
