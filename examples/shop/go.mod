module example.com/shop

go 1.26.0

require github.com/redis/go-redis/v9 v9.23.0

require (
	github.com/sigurn/crc16 v0.0.0-20211026045750-20ab5afb07e3 // indirect
	github.com/yuin/gopher-lua v1.1.2 // indirect
	golang.org/x/mod v0.42.0 // indirect
	golang.org/x/sync v0.24.0 // indirect
	golang.org/x/tools v0.52.0 // indirect
)

require (
	github.com/cespare/xxhash/v2 v2.3.0 // indirect
	github.com/slotlint/slotlint v0.0.0 // indirect
	go.uber.org/atomic v1.12.0 // indirect
	golang.org/x/sys v0.49.0 // indirect
)

replace github.com/slotlint/slotlint => ../..

tool github.com/slotlint/slotlint/cmd/slotlint
