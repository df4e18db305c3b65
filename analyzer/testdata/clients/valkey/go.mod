module example.com/sltvalkey

go 1.26.0

require github.com/valkey-io/valkey-go v1.0.79

require golang.org/x/sys v0.47.0 // indirect
