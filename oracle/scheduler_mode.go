package main

import (
	"context"
	"errors"
)

func runScheduler(ctx context.Context, c *Cluster, maxRounds int) (any, error) {
	return nil, errors.New("scheduler mode: not yet")
}
