"""Tools of the tests and the benchmarks, kept out of the apps.

Nothing in `games`, `leaderboards` or `server` imports this package: it runs Daphne processes,
reads /proc, proxies TCP connections and plays over websockets on behalf of a test or a benchmark.
"""
