"""ImageLocality, with the cases of upstream's
`pkg/scheduler/framework/plugins/imagelocality/image_locality_test.go` (TestImageLocalityPriority,
the version with maxThreshold = 1000 MiB x number of containers, init containers included,
and TestNormalizedImageName)."""
import hashlib

import numpy as np
import pytest

from builders import make_node, make_pod, make_state
from podgroup_plan.framework.interface import CycleState
from podgroup_plan.plugins.image_locality import ImageLocality, normalized_image_name

MB = 1024 * 1024

NODE_40_300_2000 = [(["gcr.io/40:latest", "gcr.io/40:v1", "gcr.io/40:v1"], 40 * MB),
                    (["gcr.io/300:latest", "gcr.io/300:v1"], 300 * MB),
                    (["gcr.io/2000:latest"], 2000 * MB)]
NODE_250_10 = [(["gcr.io/250:latest"], 250 * MB), (["gcr.io/10:latest", "gcr.io/10:v1"], 10 * MB)]
NODE_600_40_900 = [(["gcr.io/600:latest"], 600 * MB), (["gcr.io/40:latest"], 40 * MB), (["gcr.io/900:latest"], 900 * MB)]
NODE_300_600_900 = [(["gcr.io/300:latest"], 300 * MB), (["gcr.io/600:latest"], 600 * MB), (["gcr.io/900:latest"], 900 * MB)]
NODE_4000_30 = [(["gcr.io/4000:latest"], 4000 * MB), (["gcr.io/30:latest"], 30 * MB)]
NODE_20_30_40 = [(["gcr.io/20:latest"], 20 * MB), (["gcr.io/30:latest"], 30 * MB), (["gcr.io/40:latest"], 40 * MB)]

CASES = [
    pytest.param(["gcr.io/40", "gcr.io/250"], {"node1": NODE_40_300_2000, "node2": NODE_250_10},
                 {"node1": 0, "node2": 5}, id="two images spread on two nodes, prefer the larger image one"),
    pytest.param(["gcr.io/40", "gcr.io/300"], {"node1": NODE_40_300_2000, "node2": NODE_250_10},
                 {"node1": 7, "node2": 0}, id="two images on one node, prefer this node"),
    pytest.param(["gcr.io/10", "gcr.io/4000"], {"node1": NODE_4000_30, "node2": NODE_250_10},
                 {"node1": 100, "node2": 0}, id="if exceed limit, use limit"),
    pytest.param(["gcr.io/10", "gcr.io/4000"], {"node1": NODE_4000_30, "node2": NODE_250_10, "node3": []},
                 {"node1": 66, "node2": 0, "node3": 0},
                 id="if exceed limit, use limit (with node which has no images present)"),
    pytest.param(["gcr.io/300", "gcr.io/600", "gcr.io/900"],
                 {"node1": NODE_600_40_900, "node2": NODE_300_600_900, "node3": []},
                 {"node1": 32, "node2": 36, "node3": 0}, id="pod with multiple large images, node2 is preferred"),
    pytest.param(["gcr.io/30", "gcr.io/40"], {"node1": NODE_20_30_40, "node2": NODE_4000_30},
                 {"node1": 1, "node2": 0}, id="pod with multiple small images"),
    pytest.param(["gcr.io/300", "gcr.io/30"], {"node1": NODE_40_300_2000, "node2": NODE_20_30_40},
                 {"node1": 6, "node2": 0}, id="include InitContainers: prefer the larger image one"),
    pytest.param([], {"node1": NODE_40_300_2000}, {"node1": 0}, id="pod without images"),
]


@pytest.mark.parametrize("images,nodes,want", CASES)
def test_score(images, nodes, want):
    state = make_state([make_node(name, images=imgs) for name, imgs in nodes.items()])
    pod = make_pod("p", images=images)
    plugin, cs = ImageLocality(), CycleState()
    raw = plugin.score(cs, pod, state, state.all_nodes)
    assert raw.dtype == np.int64
    assert dict(zip(state.node_names, plugin.normalize(cs, pod, raw).tolist())) == want


DIGEST = "sha256:" + hashlib.sha256(b"root").hexdigest()


@pytest.mark.parametrize(
    "name,want",
    [
        pytest.param("root", "root:latest", id="add :latest postfix 1"),
        pytest.param("gcr.io:5000/root", "gcr.io:5000/root:latest", id="add :latest postfix 2"),
        pytest.param("root:tag", "root:tag", id="keep it as is 1"),
        pytest.param("root@" + DIGEST, "root@" + DIGEST, id="keep it as is 2"),
    ],
)
def test_normalized_image_name(name, want):
    assert normalized_image_name(name) == want


def test_score_indexes_the_feasible_nodes():
    state = make_state([make_node("a", images=NODE_4000_30), make_node("b"), make_node("c", images=NODE_4000_30)])
    pod = make_pod("p", images=["gcr.io/4000"])
    got = ImageLocality().score(CycleState(), pod, state, np.array([2, 1]))
    # 4000 MiB on 2 of 3 nodes: 2666 MiB, above the 1000 MiB one-image maximum.
    assert got.tolist() == [100, 0]
