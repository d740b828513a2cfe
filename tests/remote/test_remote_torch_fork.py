"""PyTorch DataLoader workers (fork, Linux's default) decoding a remote ZIP over nginx.

The case READER.md §11 is about: the workers are forks of a process that opened the dataset, so
they inherit its kept-alive connections, and each decodes on the thread it began with. Their
rasters must equal the local copy's, and the parent's connections must carry nothing while they
read (their byte counters, read in the parent before and after).
"""

from __future__ import annotations

import numpy as np
import pytest

torch = pytest.importorskip("torch")
from torch.utils.data import DataLoader  # noqa: E402

import tacocore  # noqa: E402
from remote_paths import FIXTURES  # noqa: E402
from tcp_counters import bytes_received, connections_to  # noqa: E402
from tacocore.torch import TacoDataset  # noqa: E402

GEOTIFF_ZIP = "ref/torch-fork-geotiffs.tacozip"


def test_fork_workers_decode_a_remote_zip_on_their_own_connections(served):
    tifs = sorted((FIXTURES / "tacotoolbox/geotiffs").glob("*.tif"))
    out = served.root / GEOTIFF_ZIP
    taco = tacocore.Taco(tacocore.Tortilla([tacocore.Sample(p.stem, p) for p in tifs]),
                         id="torch_fork_geotiffs", dataset_version="1.0.0",
                         description="DataLoader fork workers, remote", licenses=["CC-BY-4.0"],
                         providers=[{"name": "tests", "roles": ["producer"]}],
                         tasks=["classification"])
    tacocore.create(taco, out, overwrite=True)
    local = tacocore.load(str(out)).data
    ids = local.to_arrow()["id"].to_pylist()
    expected = {ids[i]: local.read_array(i) for i in range(len(ids))}

    remote = tacocore.load(served.url(GEOTIFF_ZIP))
    connections = connections_to(served.srv.port)
    assert connections, "the parent holds a kept-alive connection to the server"
    before = {fd: bytes_received(fd) for fd in connections}
    # The rasters differ in shape: one sample per item, no batching.
    loader = DataLoader(TacoDataset(remote), batch_size=None, num_workers=2,
                        multiprocessing_context="fork")
    got = {item["id"]: item["data"].numpy() for item in loader}
    assert sorted(got) == sorted(expected)
    for key, array in got.items():
        np.testing.assert_array_equal(array, expected[key])
    still = {fd: bytes_received(fd) for fd in connections if fd in connections_to(served.srv.port)}
    assert still == {fd: before[fd] for fd in still}, "a worker read on the parent's connection"
