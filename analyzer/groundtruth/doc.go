// Package groundtruth checks slotlint's labels against a real Redis
// Cluster. Each case in cases_test.go is a small go-redis function
// labelled with the rule it must trigger (or "clean"); the tests assert
// that the analyzers report exactly that label and that the cluster
// agrees: a reported case fails with CROSSSLOT for some inputs, a clean
// one never does. The package's code is the labelling convention (Label,
// Disagreement) and the renaming of the rueidis cases into valkey-go's,
// which the analyzer's tests of the client modules share.
package groundtruth
