"""What a rate-limited act costs the web process (issue 44 §3): counting in memory against counting in
Redis (``security.RateLimiter`` over ``security.limits_storage``), for docs/club.md.

An act (a move, an undo, …) is counted in four moving windows: two per client address and two
per seat token (``security.DEFAULT_LIMITS["act"]``, here with budgets no run reaches). Measured:
the CPU of this process and the wall time per act, ``--acts`` of them in a row.

    python benchmarks/ratelimits.py --redis redis://:pw@127.0.0.1:6390/0 [--acts 2000] [--json]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from abstracta.server.security import DEFAULT_LIMITS, RateLimiter, limits_storage  # noqa: E402


def roomy(spec: str) -> str:
    """The same windows with budgets no run reaches ("30/second" → "30000000/second")."""
    return ";".join(f"{int(part.split('/')[0]) * 1_000_000}/{part.split('/', 1)[1]}" for part in spec.split(";"))


async def per_act(redis_url: str | None, acts: int) -> dict[str, float]:
    per_ip, per_token = DEFAULT_LIMITS["act"]
    limiter = RateLimiter({"act": (roomy(per_ip), roomy(per_token))}, limits_storage(redis_url))
    assert await limiter.hit("act", "192.0.2.1", ["warm"]) is None
    cpu, wall = time.process_time(), time.perf_counter()
    for i in range(acts):
        assert await limiter.hit("act", f"192.0.2.{i % 50}", [f"token-{i % 200}"]) is None
    return {"cpu_us_per_act": round(1e6 * (time.process_time() - cpu) / acts, 1),
            "wall_us_per_act": round(1e6 * (time.perf_counter() - wall) / acts, 1)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--redis", required=True, help="a Redis URL")
    parser.add_argument("--acts", type=int, default=2000)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    result = {"windows": len(DEFAULT_LIMITS["act"][0].split(";")) + len(DEFAULT_LIMITS["act"][1].split(";")),
              "acts": args.acts, "memory": asyncio.run(per_act(None, args.acts)),
              "redis": asyncio.run(per_act(args.redis, args.acts)), "load_average": os.getloadavg()[0]}
    for name in ("memory", "redis"):
        print(f"{name:<8}{result[name]['cpu_us_per_act']:>9.1f} µs CPU {result[name]['wall_us_per_act']:>9.1f} µs wall per act")
    if args.json:
        print(json.dumps(result))


if __name__ == "__main__":
    main()
