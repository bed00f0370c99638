package maestro

import (
	"context"
	"path"
	"runtime"
	"sync"

	"github.com/flow-runner/flow/canonical"
)

// A workspace's flow files are loaded one after the other, because
// loading a flow loads its subflows, caches them, finds cycles and
// records problems and warnings in file order. Most of the time goes to
// reading each file and YAML-parsing it, which needs none of that: the
// prefetcher does both ahead, and the schema check too, on every core,
// and the loader's sequential pass picks the results up in order.

// fetched is one workspace file as the prefetcher read and prepared it.
type fetched struct {
	file string
	data []byte
	err  *canonical.Error // reading failed (readSource)
	// prepared is nil when the file could not be read.
	prepared *prepared
}

// prefetcher reads the files of a workspace in order on one goroutine
// and prepares them on GOMAXPROCS, at most window files ahead of the
// loader.
type prefetcher struct {
	ctx    context.Context
	slots  []chan *fetched
	tokens chan struct{}
	cancel context.CancelFunc
	wg     sync.WaitGroup
}

// prefetchWindow is how many files per core may be read and prepared
// ahead of the loader, up to maxPrefetchFiles: enough to keep every core
// busy while the loader decodes, few enough that memory stays that of a
// handful of files.
const (
	prefetchWindow   = 4
	maxPrefetchFiles = 32
	// maxPrefetchSize is the largest file read and prepared ahead. A
	// larger one is left to the loader in its turn, as before, so files
	// near MaxFileSize (whose node trees take hundreds of MB) are never
	// held several at once.
	maxPrefetchSize = 32 << 10
)

// prefetch starts reading and preparing files ahead of the loader; nil
// when there is nothing to gain (one core, one file). The caller takes
// the results in order (take) and must stop it.
//
// The files are read in order by one goroutine that checks ctx before
// each read, so a ctx that ends while a file is read stops reading
// there, as the loader alone would.
func (l *Loader) prefetch(files []string) *prefetcher {
	workers := runtime.GOMAXPROCS(0)
	if workers < 2 || len(files) < 2 {
		return nil
	}
	// Found once here, as checkSchema would: the loader's version is
	// settled by now (the workspace config is read).
	version := l.version
	v, err := schemaValidatorFor(version)
	if err != nil {
		v = nil // checkSchema reports it, at the first flow that needs it
	}
	ctx, cancel := context.WithCancel(l.ctx)
	p := &prefetcher{ctx: l.ctx, slots: make([]chan *fetched, len(files)),
		tokens: make(chan struct{}, min(prefetchWindow*workers, maxPrefetchFiles)), cancel: cancel}
	for i := range p.slots {
		p.slots[i] = make(chan *fetched, 1)
	}
	type job struct {
		i int
		f *fetched
	}
	jobs := make(chan job, workers)
	p.wg.Add(1 + workers)
	go func() {
		defer p.wg.Done()
		defer close(jobs)
		for i, file := range files {
			select {
			case p.tokens <- struct{}{}:
			case <-ctx.Done():
				return
			}
			if ctx.Err() != nil {
				return
			}
			f := &fetched{file: path.Clean(file)}
			info, err := l.src.Stat(f.file)
			if err == nil && info.Size() > maxPrefetchSize {
				p.slots[i] <- nil // the loader reads it in its turn
				continue
			}
			f.data, f.err = l.readStated(f.file, "flow file", canonical.Pos{File: f.file}, info, err)
			jobs <- job{i, f}
		}
	}()
	for range workers {
		go func() {
			defer p.wg.Done()
			for j := range jobs {
				if ctx.Err() != nil {
					continue // stopped: nobody takes it
				}
				if j.f.err == nil {
					j.f.prepared = prepare(l.ctx, j.f.file, j.f.data, v, version)
				}
				p.slots[j.i] <- j.f
			}
		}()
	}
	return p
}

// take waits for the ith file; nil when the loader is to read it itself
// (a large file), or once the loader's ctx is done (the loader then stops
// on its own).
func (p *prefetcher) take(i int) *fetched {
	if p == nil {
		return nil
	}
	select {
	case f := <-p.slots[i]:
		<-p.tokens
		return f
	case <-p.ctx.Done():
		return nil
	}
}

// stop ends the prefetching and waits for it, so nothing reads the
// Source once the loader has returned.
func (p *prefetcher) stop() {
	if p == nil {
		return
	}
	p.cancel()
	p.wg.Wait()
}
