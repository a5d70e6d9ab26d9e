module cipherbench/core-go

go 1.23.0

require (
	golang.org/x/crypto v0.41.0
	golang.org/x/sys v0.35.0
)
