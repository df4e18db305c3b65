module github.com/slotlint/slotlint/bench

go 1.26.0

require github.com/slotlint/slotlint v0.0.0

replace github.com/slotlint/slotlint => ../
