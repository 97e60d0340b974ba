"""ImageLocality: favour nodes that already have the pod's images.

Mirrors `pkg/scheduler/framework/plugins/imagelocality/image_locality.go` (Score only, no
NormalizeScore):

* sumImageScores: for every image of the pod (init containers, containers and, in the newest
  code, image volumes; the loader lists them all in `Pod.images`, normalised with
  `normalizedImageName`: ":latest" appended when the name has no tag) that the node reports in
  `status.images[].names`, add `int64(float64(size) * float64(numNodes) / float64(totalNodes))`
  (scaledImageScore, spread = nodes having that image / all nodes: an image present on few
  nodes counts little, against the "node heating" problem).
* calculatePriority: clamp the sum to [minThreshold, maxThreshold] with
  minThreshold = 23 MiB and maxThreshold = 1000 MiB x number of images of the pod
  (maxContainerThreshold x numContainers; verified in the stored upstream source, which
  counts init containers + containers, and in the package AGENTS.md, which adds image
  volumes), then `100 * (sum - min) / (max - min)` in int64.
* An image listed twice in the pod counts twice (upstream loops over containers).
* The size of an image name is the one of the first node that reports it (upstream takes the
  size from the first node the cache added; here nodes are in name order).

Why the shape differs from upstream: node images never change inside a ClusterState, so the
score for a tuple of images is computed once for all nodes and cached.
"""
from __future__ import annotations

from typing import Hashable

import numpy as np

from podgroup_plan.framework.interface import MAX_NODE_SCORE, CycleState, ScorePlugin
from podgroup_plan.model.objects import Pod
from podgroup_plan.state.derived import DerivedKey, Memo

MB = 1024 * 1024
MIN_THRESHOLD = 23 * MB
MAX_CONTAINER_THRESHOLD = 1000 * MB

# The nodes' images (node table) and the score per tuple of pod images.
_IMAGES: "DerivedKey[_ImageTable]" = DerivedKey("ImageLocality/images")
_MEMO: DerivedKey[Memo] = DerivedKey("ImageLocality/byImages")


def normalized_image_name(name: str) -> str:
    """normalizedImageName: append ":latest" when the last ':' is not after the last '/'."""
    if name.rfind(":") <= name.rfind("/"):
        return name + ":latest"
    return name


def calculate_priority(sum_scores: np.ndarray, num_images: int) -> np.ndarray:
    max_threshold = MAX_CONTAINER_THRESHOLD * num_images
    s = np.asarray(sum_scores, dtype=np.int64)
    s = np.where(s < MIN_THRESHOLD, MIN_THRESHOLD, np.where(s > max_threshold, max_threshold, s))
    span = max_threshold - MIN_THRESHOLD
    if span <= 0:  # a pod without images: upstream computes 0 / negative = 0
        return np.zeros(s.shape, dtype=np.int64)
    return (MAX_NODE_SCORE * (s - MIN_THRESHOLD) // span).astype(np.int64)


class _ImageTable:
    """Image name -> (summary size, node rows that report it)."""

    def __init__(self, nodes) -> None:
        size: dict[str, int] = {}
        rows: dict[str, list[int]] = {}
        for i, node in enumerate(nodes):
            for image in node.images:
                for name in set(image.names):
                    size.setdefault(name, int(image.size_bytes))
                    bucket = rows.setdefault(name, [])
                    if not bucket or bucket[-1] != i:
                        bucket.append(i)
        self.size = size
        self.rows = {name: np.asarray(r, dtype=np.intp) for name, r in rows.items()}
        self.total_nodes = len(nodes)


class ImageLocality(ScorePlugin):
    """Upstream ImageLocality (Score)."""

    name = "ImageLocality"
    node_local = True

    def sign(self, pod: Pod) -> Hashable:
        return pod.images

    def _all_nodes(self, state, images: tuple[str, ...]) -> np.ndarray:
        table = state.derived(_IMAGES, lambda s: _ImageTable(s.nodes))
        sums = np.zeros(state.n, dtype=np.int64)
        for image in images:
            rows = table.rows.get(image)
            if rows is None:
                continue
            # scaledImageScore in float64 as upstream: size * (numNodes / totalNodes).
            spread = float(len(rows)) / float(table.total_nodes)
            sums[rows] += int(float(table.size[image]) * spread)
        return calculate_priority(sums, len(images))

    def score(self, cs: CycleState, pod: Pod, state, feasible: np.ndarray) -> np.ndarray:
        table = state.derived(_IMAGES, lambda s: _ImageTable(s.nodes))
        if not table.rows:  # no node reports images: every score is 0
            return np.zeros(len(feasible), dtype=np.int64)
        images = tuple(normalized_image_name(i) for i in pod.images)
        return state.memo(_MEMO).get(images, lambda: self._all_nodes(state, images))[feasible]
