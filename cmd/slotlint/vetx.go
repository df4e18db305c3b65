package main

import (
	"encoding/json"
	"os"
	"strings"
)

// vetConfig is the part of go vet's per-package .cfg file (written by the
// go command for -vettool) that decides whether the package needs analysis.
type vetConfig struct {
	ImportPath string
	Standard   map[string]bool
	VetxOnly   bool
	VetxOutput string
}

// answerStandardVetx handles go vet's request for the facts of a
// standard-library package that is only a dependency (VetxOnly): slotlint
// records no facts for the standard library (see keyexpr's isStandard), so
// it writes an empty facts file, which vet's fact decoder reads as "no
// facts", without type-checking the package. go vet asks this for every
// standard package a module depends on, most of its packages, so skipping
// them is most of slotlint's speed under go vet. It reports whether it
// answered and the exit status.
func answerStandardVetx(args []string) (bool, int) {
	if len(args) != 1 || !strings.HasSuffix(args[0], ".cfg") {
		return false, 0
	}
	data, err := os.ReadFile(args[0])
	if err != nil {
		return false, 0 // the checker reports it
	}
	var cfg vetConfig
	if json.Unmarshal(data, &cfg) != nil || !cfg.VetxOnly || !cfg.Standard[cfg.ImportPath] || cfg.VetxOutput == "" {
		return false, 0
	}
	if err := os.WriteFile(cfg.VetxOutput, nil, 0o666); err != nil {
		return false, 0
	}
	return true, 0
}
