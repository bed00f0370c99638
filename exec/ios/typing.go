package ios

import "time"

// The runner's typing (ios-runner/FlowRunnerCore Typing.swift and
// Protocol.swift, Maestro's iOS runner's pace): the first character alone,
// then 0.5 s, then 30 keys a second; one erase request deletes at most
// maxErase characters.
const (
	maxErase         = 500
	keysPerSecond    = 30
	firstKeyPauseDur = 500 * time.Millisecond
)

// typingTime is how long the runner takes to type n keys.
func typingTime(n int) time.Duration {
	if n <= 0 {
		return 0
	}
	return firstKeyPauseDur + time.Duration(n)*time.Second/keysPerSecond
}
