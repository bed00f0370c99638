package exec

import (
	"context"
	"time"

	"github.com/flow-runner/flow/canonical"
)

// recording is the screen recording a flow has open: a video the device
// writes itself (Recorder) or an animation the runtime writes (anim).
type recording struct {
	name string // the file, relative to the working folder
	rec  Recorder
	anim AnimationRecorder
}

// closeRecordingTimeout bounds stopping a recording left open when the
// flow ends, which also happens after Ctrl-C: the file is still written.
const closeRecordingTimeout = 30 * time.Second

// startRecording starts the device's recording into <path>.mp4 (a video)
// or <path>.gif (an animation), relative to the working folder as Maestro
// places it (Orchestra.startRecordingCommand). A second start while one
// runs does nothing, as Maestro.startScreenRecording returns a no-op
// recording then. A device that cannot record refuses the command, so it
// fails the flow, or is a warning when the command is optional.
func (r *run) startRecording(ctx context.Context, t *canonical.StartRecording) error {
	p, err := r.str(ctx, t.Path)
	if err != nil {
		return err
	}
	if r.recording != nil {
		return nil
	}
	rec := &recording{}
	switch d := r.dev.(type) {
	case AnimationRecorder:
		rec.anim, rec.name = d, p+AnimationExt
	case Recorder:
		rec.rec, rec.name = d, p+".mp4"
	default:
		return errorf(canonical.CodeUnsupportedOperation, "startRecording is not supported on %s: the device %s cannot record its screen", r.info.Platform, r.info.Name).
			With("device", r.info.Name).
			WithHint("make the command optional: true to run on without a recording (a warning), or record on sim, the web device, an Android device or an iOS simulator")
	}
	r.event("startRecording", map[string]any{"path": rec.name})
	if rec.anim != nil {
		err = rec.anim.StartAnimation(ctx)
	} else {
		err = rec.rec.StartRecording(ctx, rec.name)
	}
	if err != nil {
		return deviceErr(err, "start recording")
	}
	r.recording = rec
	return nil
}

// stopRecording ends the open recording and writes its file; with none
// open it does nothing (Maestro closes a recording only if there is one).
func (r *run) stopRecording(ctx context.Context) error {
	rec := r.recording
	if rec == nil {
		return nil
	}
	r.recording = nil
	r.event("stopRecording", nil)
	if rec.rec != nil {
		return deviceErr(rec.rec.StopRecording(ctx), "stop recording")
	}
	data, err := rec.anim.StopAnimation(ctx)
	if err != nil {
		return deviceErr(err, "stop recording")
	}
	if r.cfg.Files == nil {
		return nil
	}
	if err := r.cfg.Files.WriteFile(rec.name, data); err != nil {
		return errorf(canonical.CodeCommandFailed, "cannot write the recording %s: %v", rec.name, err).Wrap(err).
			WithHint("the path is relative to the folder flow runs in; check that it is writable")
	}
	return nil
}

// closeRecording stops a recording the flow left open, as Maestro does
// after the main commands (Orchestra.runFlow), so the file is written even
// when the flow failed or was interrupted.
func (r *run) closeRecording(ctx context.Context) error {
	if r.recording == nil {
		return nil
	}
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), closeRecordingTimeout)
	defer cancel()
	return r.stopRecording(ctx)
}
