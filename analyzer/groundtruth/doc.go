// Package groundtruth holds no code: its tests check slotlint's labels
// against a real Redis Cluster. Each case in cases_test.go is a small
// go-redis function labelled with the rule it must trigger (or "clean");
// the tests assert that the analyzers report exactly that label and that the
// cluster agrees: a reported case fails with CROSSSLOT for some inputs, a
// clean one never does.
package groundtruth
