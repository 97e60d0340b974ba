// etcd v3.7, built from the Go module proxy for the live-cluster tests (tests/live/).
// This file only calls upstream's own entry point; no upstream code is copied.
package main

import (
	"os"

	"go.etcd.io/etcd/server/v3/etcdmain"
)

func main() {
	etcdmain.Main(os.Args)
}
