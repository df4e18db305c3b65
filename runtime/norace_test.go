//go:build !race

package runtime

// raceDetector tells whether the test binary runs under the race detector.
const raceDetector = false
