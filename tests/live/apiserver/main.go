// kube-apiserver v1.37.2, built from the Go module proxy for the live-cluster tests
// (tests/live/). This file only calls upstream's own command; no upstream code is copied.
package main

import (
	"os"

	"k8s.io/component-base/cli"
	"k8s.io/kubernetes/cmd/kube-apiserver/app"
)

func main() {
	os.Exit(cli.Run(app.NewAPIServerCommand()))
}
