"""The benchmarks: measurements of the engine, the bots, the server, the load and the boards.

Not a Django app and not part of the product: nothing in `players`, `games`, `leaderboards` or
`server` imports this package (the import contract `products-without-test-tools` in .importlinter),
and it may use the test tools (`testsupport`: Daphne processes, websocket players, percentiles).
Each module holds one benchmark as a Django management command class; run one with

    python -m benchmarks bench_server --tables 10

(`make bench` runs them all; docs/PERFORMANCE.md gives each figure with its command).
"""
