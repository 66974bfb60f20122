"""Percentiles of the benchmarks' samples (bench_server, bench_load)."""


def percentile(values: list[float], fraction: float) -> float:
    """The sample at `fraction` of the sorted values (nearest rank below); nan without samples."""
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]
