#!/usr/bin/env python3
"""torch's multi-GPU reduction, the peer of `kgen run --devices` (bench/multi_gpu/README.md).

One process per GPU (torch.multiprocessing, torch.distributed with the NCCL
backend): each makes N seeded elements on its GPU (or ROWS x COLS for a
column reduction), reduces them locally (torch.sum, torch.amax, ...), then
all_reduce's the partial across the GPUs: what kgen_multi_reduce does.  Rank
0 prints, per size, the median time of the whole (local op + all_reduce +
synchronize, host clock, as kgen run --devices times) and of the local op
alone, and their ratio, as TSV.

    python3 torch_peer.py --gpus 2 --op sum --dtype f32 --n 2^28
    python3 torch_peer.py --gpus 2 --op sum --dtype f32 --shape 65536x4096
"""
import argparse
import os
import statistics
import sys
import time

# NVLink multicast (NVLS) must stay off on the team's GPU machines: set
# before torch or NCCL is loaded, in this process and in every child.
os.environ["NCCL_NVLS_ENABLE"] = "0"

import torch  # noqa: E402
import torch.distributed as dist  # noqa: E402
import torch.multiprocessing as mp  # noqa: E402

DTYPES = {"f32": torch.float32, "f64": torch.float64, "f16": torch.float16, "bf16": torch.bfloat16,
          "i32": torch.int32, "i64": torch.int64}
# The local op, and how all_reduce combines its partials.
OPS = {"sum": (torch.sum, dist.ReduceOp.SUM), "max": (torch.amax, dist.ReduceOp.MAX),
       "min": (torch.amin, dist.ReduceOp.MIN), "prod": (torch.prod, dist.ReduceOp.PRODUCT)}


def count(text):
    """2^K, K[kMG] or a number, as kgen reads --n."""
    if text.startswith("2^"):
        return 1 << int(text[2:])
    scale = {"k": 1 << 10, "M": 1 << 20, "G": 1 << 30}.get(text[-1], 1)
    return int(text[:-1] if scale > 1 else text) * scale


def median_ms(fn, runs):
    for _ in range(3):
        fn()
    times = []
    for _ in range(runs):
        t0 = time.perf_counter()
        fn()
        times.append((time.perf_counter() - t0) * 1e3)
    return statistics.median(times)


def worker(rank, args, port):
    os.environ["NCCL_NVLS_ENABLE"] = "0"
    torch.cuda.set_device(rank)
    dist.init_process_group("nccl", init_method=f"tcp://127.0.0.1:{port}", rank=rank, world_size=args.gpus)
    local, op = OPS[args.op]
    dtype = DTYPES[args.dtype]
    gen = torch.Generator(device=f"cuda:{rank}").manual_seed(args.seed + rank)
    sizes = [(count(s), None) for s in args.n] + [tuple(count(p) for p in s.split("x")) for s in args.shape]
    for rows, cols in sizes:
        shape = (rows,) if cols is None else (rows, cols)
        if dtype.is_floating_point:
            x = torch.rand(shape, generator=gen, device=f"cuda:{rank}", dtype=torch.float32).to(dtype)
        else:
            x = torch.randint(-100, 100, shape, generator=gen, device=f"cuda:{rank}", dtype=dtype)
        dim = None if cols is None else 0

        def alone():
            r = local(x) if dim is None else local(x, dim=dim)
            torch.cuda.synchronize()
            return r

        def whole():
            r = local(x) if dim is None else local(x, dim=dim)
            dist.all_reduce(r, op=op)
            torch.cuda.synchronize()
            return r

        dist.barrier()
        t_alone = median_ms(alone, args.runs)
        dist.barrier()
        t_whole = median_ms(whole, args.runs)
        slowest = torch.tensor([t_alone], device=f"cuda:{rank}")
        dist.all_reduce(slowest, op=dist.ReduceOp.MAX)
        if rank == 0:
            size = f"{args.gpus}x{rows}" if cols is None else f"{args.gpus}x({rows}x{cols})"
            print(f"torch\t{args.op}\t{args.dtype}\t{size}\t{t_whole * 1e3:.2f}\t{slowest.item() * 1e3:.2f}"
                  f"\t{t_whole / slowest.item():.3f}", flush=True)
    dist.destroy_process_group()


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--gpus", type=int, default=torch.cuda.device_count())
    p.add_argument("--op", choices=sorted(OPS), default="sum")
    p.add_argument("--dtype", choices=sorted(DTYPES), default="f32")
    p.add_argument("--n", action="append", default=[], help="elements per GPU (repeatable)")
    p.add_argument("--shape", action="append", default=[], help="ROWSxCOLS per GPU, reduced along columns")
    p.add_argument("--runs", type=int, default=20)
    p.add_argument("--seed", type=int, default=20261121)
    p.add_argument("--port", type=int, default=29517)
    args = p.parse_args()
    if args.gpus < 1 or args.gpus > torch.cuda.device_count():
        sys.exit(f"torch_peer.py: --gpus {args.gpus}: this machine has {torch.cuda.device_count()} GPUs")
    if not args.n and not args.shape:
        args.n = ["2^28"]
    print("peer\top\tdtype\tsize\twhole_us\tslowest_alone_us\twhole_vs_alone", flush=True)
    mp.spawn(worker, args=(args, args.port), nprocs=args.gpus, join=True)


if __name__ == "__main__":
    main()
