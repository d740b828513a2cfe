"""bench/bench_training.py runs end to end at toy sizes (its numbers are measured at full size,
see docs/PERFORMANCE.md): every loader returns the same pixels, the Dask create its 8 parts."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("torch")
pytest.importorskip("distributed")

BENCH = Path(__file__).resolve().parents[2] / "bench" / "bench_training.py"


def test_training_benchmark_runs(tmp_path, taco_bin):
    proc = subprocess.run([sys.executable, str(BENCH), "--samples", "40", "--files", "80",
                           "--runs", "1", "--batch", "8", "--out", str(tmp_path)],
                          capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr[-3000:]
    doc = json.loads(proc.stdout)
    assert set(doc["loader_samples_per_s"]) == {"tacocore_2w", "tacocore_1w", "tacocore_fresh_2w",
                                                "tacocore_fresh_1w", "reference_2w", "reference_held_2w"}
    assert set(doc["loader_main_cpu_ms_per_sample"]) == set(doc["loader_samples_per_s"])
    assert all(v > 0 for v in doc["loader_samples_per_s"].values())
    assert set(doc["loader_cpu_ms_per_sample"]) == set(doc["loader_samples_per_s"])
    assert all(v > 0 for v in doc["loader_cpu_ms_per_sample"].values())
    assert doc["create"]["taco_create_s"] > 0 and len(doc["create"]["task_seconds"]) == 8
