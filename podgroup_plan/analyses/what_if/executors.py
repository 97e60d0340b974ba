"""Who runs a sweep's scenarios: this process, a local process pool, or a Ray cluster.

Each executor sends the shared `Sweep` to a worker once (a process pool: pickled into each
worker by its initializer; Ray: `ray.put` into the object store once, every task reading the
same object) and then only scenario numbers, and returns the rows in scenario order: the same
rows whatever ran them. Ray is an optional extra (`python3 -m pip install '.[ray]' in the podgroup-plan checkout`); asked for
without it, the sweep is a usage error, not a traceback.
"""
from __future__ import annotations

import hashlib
import os
import pickle
from collections.abc import Callable
from typing import Any

from podgroup_plan.analyses.what_if.sweep import PlanFn, Sweep, run_scenario

SERIAL = "serial"
PROCESSES = "processes"
RAY = "ray"
EXECUTORS = (SERIAL, PROCESSES, RAY)


class ExecutorUnavailable(RuntimeError):
    """The executor asked for cannot run here (Ray not installed, a cluster not reachable)."""


Row = dict[str, Any]
Factory = Callable[[], PlanFn]  # builds a worker's plan function (its Planner) once


def run(sweep: Sweep, factory: Factory, executor: str = SERIAL, workers: int | None = None,
        ray_address: str | None = None) -> list[Row]:
    if executor == SERIAL:
        plan_fn = factory()
        return [run_scenario(sweep, i, plan_fn) for i in range(len(sweep.scenarios))]
    if executor == PROCESSES:
        return _processes(sweep, factory, workers)
    if executor == RAY:
        return _ray(sweep, factory, workers, ray_address)
    raise ExecutorUnavailable(f"unknown executor {executor!r} (one of {', '.join(EXECUTORS)})")


# --- a local process pool ---------------------------------------------------------------------

_worker: tuple[Sweep, PlanFn] | None = None


def _init_worker(payload: bytes) -> None:
    global _worker
    sweep, factory = pickle.loads(payload)
    _worker = (sweep, factory())


def _run_in_worker(index: int) -> Row:
    assert _worker is not None
    sweep, plan_fn = _worker
    return run_scenario(sweep, index, plan_fn)


def _processes(sweep: Sweep, factory: Factory, workers: int | None) -> list[Row]:
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    count = len(sweep.scenarios)
    if count == 0:
        return []
    workers = max(1, min(workers or os.cpu_count() or 1, count))
    payload = pickle.dumps((sweep, factory), protocol=pickle.HIGHEST_PROTOCOL)
    # fork where the platform has it (the parent's imports are shared); spawn elsewhere
    method = "fork" if "fork" in multiprocessing.get_all_start_methods() else "spawn"
    with ProcessPoolExecutor(max_workers=workers, mp_context=multiprocessing.get_context(method),
                             initializer=_init_worker, initargs=(payload,)) as pool:
        chunk = max(1, count // (workers * 4))
        return list(pool.map(_run_in_worker, range(count), chunksize=chunk))


# --- Ray --------------------------------------------------------------------------------------

def _ray(sweep: Sweep, factory: Factory, workers: int | None, address: str | None) -> list[Row]:
    try:
        import ray
    except ImportError as err:
        raise ExecutorUnavailable(
            "--executor ray needs Ray: python3 -m pip install '.[ray]' in the podgroup-plan checkout") from err
    started = False
    if not ray.is_initialized():
        try:
            if address:
                ray.init(address=address, include_dashboard=False, log_to_driver=False)
            else:
                ray.init(num_cpus=workers or os.cpu_count() or 1, include_dashboard=False,
                         log_to_driver=False)
        except Exception as err:
            raise ExecutorUnavailable(f"--executor ray: cannot reach Ray at {address or 'a local Ray'}: "
                                      f"{' '.join(str(err).split())}") from err
        started = True
    try:
        payload = pickle.dumps((sweep, factory), protocol=pickle.HIGHEST_PROTOCOL)
        token = hashlib.sha256(payload).hexdigest()
        shared = ray.put(payload)
        task = ray.remote(_ray_batch)
        count = len(sweep.scenarios)
        size = max(1, count // ((workers or 2) * 4))
        batches = [list(range(i, min(i + size, count))) for i in range(0, count, size)]
        rows: list[Row] = []
        for batch_rows in ray.get([task.remote(shared, token, b) for b in batches]):
            rows.extend(batch_rows)
        return rows
    finally:
        if started:
            ray.shutdown()


def _ray_batch(payload: bytes, token: str, indexes: list[int]) -> list[Row]:
    """A Ray task: the scenarios `indexes` of the shared sweep. A worker process keeps the
    unpickled sweep and its plan function (its Planner) between tasks of the same sweep."""
    global _ray_token
    if _worker is None or _ray_token != token:
        _init_worker(payload)
        _ray_token = token
    return [_run_in_worker(i) for i in indexes]


_ray_token: str | None = None
