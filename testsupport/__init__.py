"""Tools of the tests and the benchmarks, kept out of the apps.

Nothing in `players`, `games`, `leaderboards` or `server` imports this package but the benchmarks'
commands (games/management/commands/bench_*.py), which parse their options and call it: it runs
Daphne processes (daphne), reads /proc (procfs), proxies TCP connections (tcp_proxy), plays over
HTTP (clients) and websockets (ws_player: the one test player), holds the in-process room tests'
fixtures (rooms_fixtures) and the benchmarks' measurement (bench_server, bench_load).
"""
