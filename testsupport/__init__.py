"""Tools of the tests and the benchmarks, kept out of the apps.

Nothing in `players`, `games`, `leaderboards` or `server` imports this package (the contract
`products-without-test-tools` in .importlinter); the tests and the benchmarks (benchmarks/, outside
the apps: `python -m benchmarks bench_server`) do. It runs Daphne processes (daphne), reads /proc
(procfs), proxies TCP connections (tcp_proxy), plays over HTTP (clients) and websockets
(ws_player: the one test player), holds the in-process room tests' fixtures (rooms_fixtures) and
the benchmarks' measurement (bench_server, bench_load).
"""
