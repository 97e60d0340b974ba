"""The analyses' benchmarks at smoke size: they measure the right thing (every copy placed,
CP-SAT's proof, every scenario planned), never time."""
from __future__ import annotations

from benchmarks import headroom as headroom_bench
from benchmarks import what_if as what_if_bench


def test_headroom_benchmark_places_its_copies_and_proves_its_optima(capsys):
    assert headroom_bench.main(["--nodes", "100", "--copies", "5", "--exact-nodes", "100",
                                "--exact-copies", "50"]) == 0
    greedy, empty, fragmented = capsys.readouterr().out.splitlines()
    assert greedy.startswith("greedy: 100 nodes, 5 of 5 copies fit")
    # ten racks of ten 8-GPU nodes hold ten 8-GPU copies each: 50 asked, 50 placed and proved
    assert "50 of 50 copies fit" in empty and "CP-SAT OPTIMAL 50 copies (bound 50)" in empty
    # the fragmented case's optimum is below --max: a bound CP-SAT had to prove
    assert "CP-SAT OPTIMAL" in fragmented and "(bound 50)" not in fragmented


def test_what_if_benchmark_plans_every_scenario(capsys):
    assert what_if_bench.main(["--nodes", "100", "--executor", "serial"]) == 0
    out = capsys.readouterr().out
    assert "scenarios=10 executor=serial" in out and "errors: 0" in out
