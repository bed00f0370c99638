package phone

import (
	"fmt"
	"io"
	"strconv"
	"strings"
)

// ln -s TARGET LINK, as toybox makes it (toys/posix/ln.c): symlink(2),
// which fails with EEXIST when LINK exists, whatever it points at: the
// atomic step flow's device lock relies on (exec/android lock.go). Other
// forms of ln are not modelled.
func (p *Phone) ln(args []string, stderr io.Writer) int {
	var pos []string
	symbolic := false
	for _, a := range args {
		switch {
		case a == "-s":
			symbolic = true
		case a == "-sn" || a == "-ns":
			symbolic = true
		case strings.HasPrefix(a, "-"):
			return p.notModelled("ln", args, stderr)
		default:
			pos = append(pos, a)
		}
	}
	if !symbolic || len(pos) != 2 {
		return p.notModelled("ln", args, stderr)
	}
	target, link := pos[0], pos[1]
	p.mu.Lock()
	_, exists := p.links[link]
	if !exists {
		if _, err := p.files.ReadFile(link); err == nil {
			exists = true
		}
	}
	if !exists {
		p.links[link] = target
	}
	p.mu.Unlock()
	if exists {
		fmt.Fprintln(stderr, reply("ln-exists", "target", target, "link", link))
		return 1
	}
	return 0
}

// readlink LINK prints the link's target; for anything that is not a
// link it prints nothing and exits 1 (toybox toys/other/readlink.c).
func (p *Phone) readlink(args []string, stdout, stderr io.Writer) int {
	if len(args) != 1 || strings.HasPrefix(args[0], "-") {
		return p.notModelled("readlink", args, stderr)
	}
	p.mu.Lock()
	target, ok := p.links[args[0]]
	p.mu.Unlock()
	if !ok {
		return 1
	}
	fmt.Fprintln(stdout, reply("readlink", "target", target))
	return 0
}

// pidof NAME prints the pids of the processes of that name and exits 0,
// or prints nothing and exits 1 (toybox toys/lsb/pidof.c). The only
// process the fake runs by name is the helper, while an instrumentation
// of it is running.
func (p *Phone) pidof(args []string, stdout io.Writer) int {
	p.mu.Lock()
	pid := p.helperPid
	p.mu.Unlock()
	for _, a := range args {
		if a == HelperPackage && pid != 0 {
			fmt.Fprintln(stdout, reply("pidof", "pids", strconv.Itoa(pid)))
			return 0
		}
	}
	return 1
}

// Links are the symbolic links on the phone (path -> target), for tests
// that look at flow's device lock.
func (p *Phone) Links() map[string]string {
	p.mu.Lock()
	defer p.mu.Unlock()
	out := make(map[string]string, len(p.links))
	for k, v := range p.links {
		out[k] = v
	}
	return out
}
