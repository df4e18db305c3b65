module example.com/slt

go 1.26.0

require (
	github.com/redis/go-redis/v9 v9.23.0
	github.com/slotlint/slotlint v0.0.0
)

require (
	github.com/cespare/xxhash/v2 v2.3.0 // indirect
	github.com/sigurn/crc16 v0.0.0-20211026045750-20ab5afb07e3 // indirect
	go.uber.org/atomic v1.12.0 // indirect
	golang.org/x/sys v0.49.0 // indirect
)

// The runtime's operations are cases of the rules (crossslot, hashtag, fix).
replace github.com/slotlint/slotlint => ../..
