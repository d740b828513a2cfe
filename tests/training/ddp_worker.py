"""One rank of a real DDP job for test_torch.py: joins a gloo process group on loopback, iterates
a TacoIterableDataset (rank and world size from torch.distributed, not from arguments) through a
DataLoader with 2 forked workers, all-gathers the ids every rank saw, and writes them as JSON.

    python ddp_worker.py RANK WORLD PORT DATASET OUT.json [SHUFFLE_SEED]
"""

import json
import sys
from datetime import timedelta

import torch.distributed as dist
from torch.utils.data import DataLoader

from tacocore.torch import TacoIterableDataset, collate


def main() -> None:
    rank, world, port, dataset, out = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3], sys.argv[4], sys.argv[5]
    seed = int(sys.argv[6]) if len(sys.argv) > 6 else None
    dist.init_process_group("gloo", init_method=f"tcp://127.0.0.1:{port}", rank=rank,
                            world_size=world, timeout=timedelta(seconds=60))
    try:
        ds = TacoIterableDataset(dataset, shuffle=seed is not None, seed=seed or 0, batch_size=4)
        loader = DataLoader(ds, batch_size=4, num_workers=2, collate_fn=collate,
                            multiprocessing_context="fork")
        mine = []
        shapes = set()
        for batch in loader:
            mine.extend(batch["id"])
            shapes.add(tuple(batch["data"].shape[1:]))
        gathered = [None] * world
        dist.all_gather_object(gathered, mine)
        with open(out, "w") as f:
            json.dump({"rank": rank, "len": len(ds), "mine": mine, "all": gathered,
                       "shapes": sorted(shapes)}, f)
    finally:
        dist.destroy_process_group()


if __name__ == "__main__":
    main()
