"""simulate() on other executors (issue 22, "Simulation on a cluster"): the result for a seed is
identical to the local run whatever the executor and worker count.

Dask runs here on a real ``LocalCluster`` (separate worker processes talking to a scheduler over
loopback TCP). Ray takes ~15 s to start, so its test is opt-in: ``CARDSPEC_TEST_RAY=1``
(docs/simulate.md).
"""
import json
import os
from concurrent.futures import ThreadPoolExecutor

import pytest
from click.testing import CliRunner

from cardspec.cli import main
from cardspec.play.simulate import SimulationError, make_executor, simulate

CASES = [("hearts", 40, {"deals": 1}, None), ("red-dog", 12, {}, None), ("oh-hell", 2, {"deals": 2}, "ismcts:4,random")]


@pytest.mark.parametrize("ruleset, n, options, bots", CASES)
def test_thread_executor_gives_the_local_result(ruleset, n, options, bots):
    local = simulate(ruleset, n, bots=bots, seed=5, options=options)
    with ThreadPoolExecutor(max_workers=3) as ex:
        threaded = simulate(ruleset, n, bots=bots, seed=5, options=options, executor=ex)
    assert threaded == local


def test_dask_local_cluster_gives_the_local_result_and_ships_the_ruleset(tmp_path):
    pytest.importorskip("dask.distributed")
    # A variant file the workers never read: the client ships the merged ruleset.
    variant = tmp_path / "short-hearts.yaml"
    variant.write_text("extends: hearts\nname: short-hearts\n")
    local = simulate(str(variant), 60, seed=3, options={"deals": 1}, workers=2)
    ex = make_executor("dask", workers=2)
    try:
        assert ex.slots == 2
        seen = []
        remote = simulate(str(variant), 60, seed=3, options={"deals": 1}, workers=2, executor=ex,
                          progress=seen.append)
    finally:
        ex.shutdown()
    assert remote == local
    assert seen == sorted(seen) and seen[-1] == 60


def test_cli_executor_threads_matches_workers_2():
    r = CliRunner()
    a = r.invoke(main, ["simulate", "hearts", "-n", "40", "--workers", "2", "--json", "--option", "deals=1"])
    b = r.invoke(main, ["simulate", "hearts", "-n", "40", "--workers", "2", "--executor", "threads", "--json",
                        "--option", "deals=1"])
    assert a.exit_code == 0 and b.exit_code == 0, (a.output, b.output)
    assert json.loads(a.output) == json.loads(b.output)


def test_bad_executor_specs_are_clear_errors():
    with pytest.raises(SimulationError, match="unknown --executor 'spark'"):
        make_executor("spark")
    r = CliRunner().invoke(main, ["simulate", "hearts", "-n", "4", "--executor", "spark"])
    assert r.exit_code == 2 and "unknown --executor" in r.output and "Traceback" not in r.output
    pytest.importorskip("dask.distributed")
    with pytest.raises(SimulationError, match="cannot reach the Dask scheduler"):
        make_executor("dask://127.0.0.1:1", workers=1, timeout=1)


@pytest.mark.skipif(os.environ.get("CARDSPEC_TEST_RAY") != "1", reason="opt-in: CARDSPEC_TEST_RAY=1 (Ray starts in ~15 s)")
def test_ray_gives_the_local_result():
    pytest.importorskip("ray")
    local = simulate("hearts", 40, seed=9, options={"deals": 1})
    ex = make_executor("ray", workers=2)
    try:
        remote = simulate("hearts", 40, seed=9, options={"deals": 1}, workers=2, executor=ex)
    finally:
        ex.shutdown()
    assert remote == local


def test_games_compile_one_at_a_time_across_threads(monkeypatch):
    """Compiling parses generated code with ast.parse, which CPython 3.11 cannot run in two threads at
    once (gh-106905: "SystemError: AST constructor recursion depth mismatch", seen here with the thread
    executor): Game construction is serialised. Four threads load at once; at most one is compiling."""
    import threading
    import time

    import cardspec
    from cardspec.engine.compiler import Compiler

    inside, most, lock = [0], [0], threading.Lock()
    real = Compiler.finish

    def finish(self):   # every compile passes here once; the sleep widens any overlap
        with lock:
            inside[0] += 1
            most[0] = max(most[0], inside[0])
        time.sleep(0.05)
        with lock:
            inside[0] -= 1
        return real(self)

    monkeypatch.setattr(Compiler, "finish", finish)
    errors = []

    def load():
        try:
            cardspec.load("red-dog")
        except Exception as e:  # noqa: BLE001
            errors.append(e)

    threads = [threading.Thread(target=load) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors and most[0] == 1
