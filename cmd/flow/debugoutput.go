package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/flow-runner/flow/canonical"
	"github.com/flow-runner/flow/exec"
	"github.com/flow-runner/flow/exec/fsext"
)

// Maestro's debug output (maestro-cli/src/main/java/maestro/cli/report/
// TestDebugReporter.kt, 1.39.10): under --debug-output DIR, in
// .maestro/tests/<yyyy-MM-dd_HHmmss>/ unless --flatten-debug-output puts
// the files in DIR itself, a maestro.log, a commands-(FLOW).json per flow
// and the failure screenshot screenshot-❌-<epoch ms>-(FLOW).png, with
// "shard-N-" after the first dash when the run is sharded. Unlike Maestro,
// flow writes none of it without --debug-output (Maestro's default root is
// the home folder), and no ai-*.json or ai-report-*.html (flow runs no AI
// command).

// debugFolder is the folder the run's debug files go to: Maestro's
// buildDefaultDebugOutputPath (.maestro/tests/ and the local start time
// as yyyy-MM-dd_HHmmss) under root, or root itself when flattened.
func debugFolder(root string, flatten bool, start time.Time) string {
	if flatten {
		return root
	}
	return filepath.Join(root, ".maestro", "tests", start.Format("2006-01-02_150405"))
}

// debugOutput is the observer behind --debug-output. It writes the log as
// the run goes, and each flow's commands file and failure screenshot when
// the flow ends. It passes everything on to next.
type debugOutput struct {
	next exec.Observer
	dir  string
	// single is Maestro's single-flow mode (one flow file, no report):
	// files are named after the flow's file name, extension included
	// (TestRunner.runSingle), instead of the flow's name.
	single bool
	// artifacts is the folder the runner writes failure screenshots to.
	artifacts string
	// hideArtifacts drops the artifact names passed on to next when the
	// artifacts folder is temporary: they would name files that are gone.
	hideArtifacts bool
	now           func() time.Time

	mu  sync.Mutex
	log *os.File
	// commands are the commands seen starting, by position, to write each
	// step's command; the same position is the same command on every
	// shard.
	commands map[canonical.Pos]canonical.Command
	// starts holds, per file and shard, when its flows started.
	starts map[flowRun][]time.Time
	// running holds, per file, the shards running it now, for the log's
	// "[shard N] " prefix.
	running map[string][]int
	// shots maps an artifact name to the debug screenshot written from it.
	shots map[string]string
	err   error
}

type flowRun struct {
	file  string
	shard int
}

// newDebugOutput creates the debug folder and opens its log, appending as
// Maestro's logback FileAppender does (a flattened folder keeps the log
// of earlier runs).
func newDebugOutput(next exec.Observer, dir string, single bool, artifacts string, hideArtifacts bool, version string) (*debugOutput, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, debugError(dir, err)
	}
	log, err := os.OpenFile(filepath.Join(dir, "maestro.log"), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return nil, debugError(dir, err)
	}
	d := &debugOutput{next: next, dir: dir, single: single, artifacts: artifacts, hideArtifacts: hideArtifacts, now: time.Now,
		log: log, commands: map[canonical.Pos]canonical.Command{}, starts: map[flowRun][]time.Time{},
		running: map[string][]int{}, shots: map[string]string{}}
	// TestDebugReporter.logSystemInfo's header, with flow's facts.
	for _, l := range []string{"---- System Info ----", "Flow Version: " + version, "OS Name: " + runtime.GOOS,
		"Architecture: " + runtime.GOARCH, "---------------------"} {
		d.logLine("INFO", l)
	}
	return d, nil
}

func debugError(dir string, err error) *canonical.Error {
	return canonical.Errorf(canonical.CodeInvalidArgs, "cannot write the debug output to %s: %v", dir, unwrapPath(err)).
		With("flag", "--debug-output").With("path", dir).Wrap(err).
		WithHint("name a writable folder for --debug-output")
}

func unwrapPath(err error) error {
	if pe, ok := err.(*os.PathError); ok {
		return pe.Err
	}
	return err
}

// logLine writes one line in Maestro's file pattern (LogConfig:
// "%d{HH:mm:ss.SSS} [%5level] %logger.%method: %msg%n"); the caller holds
// mu or runs before the run starts.
func (d *debugOutput) logLine(level, msg string) {
	if d.log == nil {
		return
	}
	line := fmt.Sprintf("%s [%5s] flow.test: %s\n", d.now().Format("15:04:05.000"), level, strings.ReplaceAll(msg, "\n", " "))
	if _, err := d.log.WriteString(line); err != nil && d.err == nil {
		d.err = debugError(d.dir, err)
	}
}

// shardPrefix is the log prefix of a flow's lines: "[shard N] " when its
// file runs on exactly one shard now; a flow run on several shards at
// once (--shard-all) cannot tell its steps apart and goes without.
func (d *debugOutput) shardPrefix(file string) string {
	if s := d.running[file]; len(s) == 1 && s[0] > 0 {
		return fmt.Sprintf("[shard %d] ", s[0])
	}
	return ""
}

// FlowStarted notes when the flow started, for its commands' timestamps.
func (d *debugOutput) FlowStarted(f *canonical.Flow, shard int) {
	d.mu.Lock()
	k := flowRun{f.File, shard}
	d.starts[k] = append(d.starts[k], d.now())
	d.running[f.File] = append(d.running[f.File], shard)
	d.mu.Unlock()
	d.next.FlowStarted(f, shard)
}

// StepStarted logs the command as Maestro's onCommandStart does.
func (d *debugOutput) StepStarted(f *canonical.Flow, c canonical.Command, desc string, depth int) {
	d.mu.Lock()
	d.commands[c.Base().Pos] = c
	d.logLine("INFO", d.shardPrefix(f.File)+desc+" RUNNING")
	d.mu.Unlock()
	d.next.StepStarted(f, c, desc, depth)
}

// StepFinished logs how the command ended, as Maestro's callbacks do.
func (d *debugOutput) StepFinished(f *canonical.Flow, s exec.StepResult, desc string) {
	d.mu.Lock()
	d.logLine("INFO", d.shardPrefix(f.File)+desc+" "+commandStatus(s.Status))
	d.mu.Unlock()
	d.next.StepFinished(f, s, desc)
}

// LoopRunning passes a loop's progress on.
func (d *debugOutput) LoopRunning(f *canonical.Flow, depth, run int) {
	if o, ok := d.next.(exec.LoopObserver); ok {
		o.LoopRunning(f, depth, run)
	}
}

// RunsOmitted passes a loop's summary on.
func (d *debugOutput) RunsOmitted(f *canonical.Flow, depth int, omitted exec.OmittedRuns) {
	if o, ok := d.next.(exec.LoopObserver); ok {
		o.RunsOmitted(f, depth, omitted)
	}
}

// FlowFinished writes the flow's commands file and failure screenshot.
func (d *debugOutput) FlowFinished(r exec.FlowResult) {
	d.mu.Lock()
	k := flowRun{r.File, r.Shard}
	start := d.now().Add(-time.Duration(r.DurationMs) * time.Millisecond)
	if s := d.starts[k]; len(s) > 0 {
		start, d.starts[k] = s[0], s[1:]
	}
	if s := d.running[r.File]; len(s) > 0 {
		for i, sh := range s {
			if sh == r.Shard {
				d.running[r.File] = append(s[:i:i], s[i+1:]...)
				break
			}
		}
	}
	if r.Status == exec.StatusFailed && r.Error != nil {
		d.logLine("ERROR", d.shardPrefix(r.File)+"Failed to complete flow: "+r.Error.Error())
	}
	d.saveFlow(r, start)
	d.mu.Unlock()
	if d.hideArtifacts {
		r.Artifacts = nil
	}
	d.next.FlowFinished(r)
}

// fileFlowName is the flow's part of the debug file names: its name in
// suite mode, its file name in single-flow mode, with "/" made "_" as
// Maestro does for the commands file (it leaves it in screenshot names,
// where it makes a path that does not exist; flow replaces it there too).
// Where Maestro would fail to write the file, flow writes it under a
// name that fits: on Windows the characters it refuses become "_", and a
// name is cut at maxDebugName bytes (on a character boundary).
func (d *debugOutput) fileFlowName(r exec.FlowResult) string {
	name := r.Name
	if d.single || r.Name == "" {
		name = filepath.Base(filepath.FromSlash(r.File))
	}
	bad := "/\x00"
	if runtime.GOOS == "windows" {
		bad += `\<>:"|?*`
	}
	name = strings.Map(func(c rune) rune {
		if strings.ContainsRune(bad, c) || (runtime.GOOS == "windows" && c < 32) {
			return '_'
		}
		return c
	}, name)
	for len(name) > maxDebugName {
		_, size := utf8.DecodeLastRuneInString(name)
		name = name[:len(name)-size]
	}
	return name
}

// maxDebugName leaves room in a 255-byte file name for the longest
// prefix and suffix: "screenshot-shard-NNN-❌-<13 digits>-(" and ").png".
const maxDebugName = 200

// saveFlow is TestDebugReporter.saveFlow: commands-[shard-N-](FLOW).json
// when the flow ran commands, and the failure screenshot.
func (d *debugOutput) saveFlow(r exec.FlowResult, start time.Time) {
	shard := ""
	if r.Shard > 0 {
		shard = fmt.Sprintf("shard-%d-", r.Shard)
	}
	name := d.fileFlowName(r)
	if len(r.Steps) > 0 {
		data := jacksonPretty(d.commandsJSON(r, start))
		d.write("commands-"+shard+"("+name+").json", data)
	}
	shot := failureShot(r)
	if shot == "" || d.artifacts == "" {
		return
	}
	src := filepath.Join(d.artifacts, filepath.FromSlash(shot))
	info, err := os.Stat(src)
	if err != nil {
		return // no screenshot was taken (the device could not give one)
	}
	png, err := os.ReadFile(src)
	if err != nil {
		return
	}
	// The timestamp is when the screenshot was taken, as Maestro stamps
	// it (ScreenshotUtils.takeDebugScreenshot): the artifact's write time.
	file := "screenshot-" + shard + "❌-" + strconv.FormatInt(info.ModTime().UnixMilli(), 10) + "-(" + name + ").png"
	if d.write(file, png) {
		d.shots[shot] = filepath.Join(d.dir, file)
	}
}

func (d *debugOutput) write(name string, data []byte) bool {
	if err := fsext.WriteFile(filepath.Join(d.dir, name), data, fsext.WriteOptions{}); err != nil {
		if d.err == nil {
			d.err = debugError(d.dir, err)
		}
		return false
	}
	return true
}

// screenshot is the debug screenshot written for an artifact, or "".
func (d *debugOutput) screenshot(artifact string) string {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.shots[artifact]
}

// close closes the log and returns the first write failure.
func (d *debugOutput) close() error {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.log == nil {
		return d.err
	}
	if err := d.log.Close(); err != nil && d.err == nil {
		d.err = debugError(d.dir, err)
	}
	d.log = nil
	return d.err
}

// commandStatus is Maestro's CommandStatus name for a step
// (maestro/cli/runner/CommandStatus.kt). An interrupted step never
// finished: Maestro would have left it RUNNING.
func commandStatus(s exec.Status) string {
	switch s {
	case exec.StatusPassed:
		return "COMPLETED"
	case exec.StatusFailed:
		return "FAILED"
	case exec.StatusWarned:
		return "WARNED"
	case exec.StatusSkipped:
		return "SKIPPED"
	}
	return "RUNNING"
}

// commandsJSON is the list TestDebugReporter.saveFlow writes: one
// {command, metadata} per step (CommandDebugWrapper), metadata holding
// CommandDebugMetadata's status, timestamp (epoch ms at the command's
// start), duration (ms) and error. Maestro keys its list by command
// object in an IdentityHashMap, so its order is arbitrary and a loop's
// command appears once, with its last run; flow lists every step the
// result keeps, in the order they started. The command is {<Maestro's
// MaestroCommand property>: <flow's canonical form of it>}: the key a
// reader of Maestro's file dispatches on, with flow's own fields (those of
// flow plan). The timestamps are the flow's start plus the durations of
// the steps before (device time, as the durations are).
func (d *debugOutput) commandsJSON(r exec.FlowResult, start time.Time) []any {
	type open struct {
		depth int
		end   int64
	}
	var stack []open
	cursor := start.UnixMilli()
	out := make([]any, 0, len(r.Steps))
	for _, s := range r.Steps {
		for len(stack) > 0 && stack[len(stack)-1].depth >= s.Depth {
			cursor = max(cursor, stack[len(stack)-1].end)
			stack = stack[:len(stack)-1]
		}
		stack = append(stack, open{s.Depth, cursor + s.DurationMs})
		meta := jsonObject{{"status", commandStatus(s.Status)}, {"timestamp", cursor}, {"duration", s.DurationMs}}
		if s.Error != nil {
			meta = append(meta, jsonField{"error", s.Error})
		}
		out = append(out, jsonObject{{"command", d.commandJSON(s)}, {"metadata", meta}})
	}
	return out
}

func (d *debugOutput) commandJSON(s exec.StepResult) any {
	c, ok := d.commands[s.Pos]
	if !ok {
		return jsonObject{{maestroCommandKey(s.Command, nil), jsonObject{{"command", s.Command}}}}
	}
	data, err := canonical.EncodeCommand(c)
	if err != nil {
		return jsonObject{{maestroCommandKey(s.Command, c), jsonObject{{"command", s.Command}}}}
	}
	return jsonObject{{maestroCommandKey(s.Command, c), json.RawMessage(data)}}
}

// maestroCommandKey is the MaestroCommand property (maestro-orchestra-
// models/.../MaestroCommand.kt) that holds the command the flow names
// name; flow's own commands keep their name.
func maestroCommandKey(name string, c canonical.Command) string {
	if t, ok := c.(*canonical.Tap); ok && t.Point != nil {
		return "tapOnPointV2Command"
	}
	switch name {
	case "tapOn", "doubleTapOn", "longPressOn":
		return "tapOnElement"
	case "assertVisible", "assertNotVisible", "assertTrue":
		return "assertConditionCommand"
	case "inputRandomText", "inputRandomNumber", "inputRandomEmail", "inputRandomPersonName":
		return "inputRandomTextCommand"
	case "back":
		return "backPressCommand"
	case "scroll":
		return "scrollCommand"
	case "scrollUntilVisible":
		return "scrollUntilVisible"
	case "copyTextFrom":
		return "copyTextCommand"
	case "waitForAnimationToEnd":
		return "waitForAnimationToEndCommand"
	case "inputText", "launchApp", "openLink", "pressKey", "eraseText", "hideKeyboard", "takeScreenshot",
		"stopApp", "killApp", "clearState", "clearKeychain", "runFlow", "setLocation", "repeat", "pasteText",
		"runScript", "evalScript", "travel", "startRecording", "stopRecording", "addMedia", "setAirplaneMode",
		"toggleAirplaneMode", "retry", "swipe", "assertWithAI", "assertNoDefectsWithAI", "extractTextWithAI":
		return name + "Command"
	}
	return name
}

// jsonObject keeps its fields in order, as Jackson writes a class's
// properties in declaration order.
type jsonObject []jsonField

type jsonField struct {
	key   string
	value any
}

// jacksonPretty writes v as Jackson's DefaultPrettyPrinter does (the
// writer TestDebugReporter uses): objects one field a line indented by
// two spaces with " : " after the key, arrays on the line as "[ a, b ]"
// and "{ }" / "[ ]" when empty, no newline at the end.
func jacksonPretty(v any) []byte {
	var b bytes.Buffer
	prettyValue(&b, v, 0)
	return b.Bytes()
}

func prettyValue(b *bytes.Buffer, v any, indent int) {
	switch t := v.(type) {
	case jsonObject:
		if len(t) == 0 {
			b.WriteString("{ }")
			return
		}
		b.WriteString("{\n")
		for i, f := range t {
			if i > 0 {
				b.WriteString(",\n")
			}
			b.WriteString(strings.Repeat("  ", indent+1))
			b.Write(marshalScalar(f.key))
			b.WriteString(" : ")
			prettyValue(b, f.value, indent+1)
		}
		b.WriteString("\n" + strings.Repeat("  ", indent) + "}")
	case []any:
		if len(t) == 0 {
			b.WriteString("[ ]")
			return
		}
		b.WriteString("[ ")
		for i, e := range t {
			if i > 0 {
				b.WriteString(", ")
			}
			prettyValue(b, e, indent)
		}
		b.WriteString(" ]")
	case map[string]any:
		keys := make([]string, 0, len(t))
		for k := range t {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		obj := make(jsonObject, len(keys))
		for i, k := range keys {
			obj[i] = jsonField{k, t[k]}
		}
		prettyValue(b, obj, indent)
	default:
		data := marshalScalar(v)
		var generic any
		dec := json.NewDecoder(bytes.NewReader(data))
		dec.UseNumber()
		if err := dec.Decode(&generic); err != nil {
			b.Write(data)
			return
		}
		switch generic.(type) {
		case map[string]any, []any:
			prettyValue(b, generic, indent)
		default:
			b.Write(data)
		}
	}
}

// marshalScalar is v's JSON without Go's escaping of <, > and & (Jackson
// writes them as they are); null when v cannot be encoded.
func marshalScalar(v any) []byte {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return []byte("null")
	}
	return bytes.TrimRight(b.Bytes(), "\n")
}
