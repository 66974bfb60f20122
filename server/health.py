"""GET /healthz and GET /readyz: is this process alive, and can it serve a game now.

`/healthz` touches nothing (a process that answers is alive). `/readyz` checks, each within
FOOT_READY_TIMEOUT seconds: the database (a fresh connection answers `SELECT 1`), its migrations
(none unapplied: checked until they are once, then remembered, since a release migrates before
its processes start) and the channel layer (every Redis host answers PING; the in-memory layer
is always there). 200 when all pass, else 503 naming the parts that failed. The database is
reached on a connection of its own, in a small thread pool of its own, so that a database that
hangs holds neither the event loop nor the rooms' database threads; the process starts and
answers both routes while the database is down (Django connects lazily).
"""

import asyncio
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from channels.layers import get_channel_layer
from django.conf import settings
from django.db import connections
from django.db.backends.base.base import BaseDatabaseWrapper
from django.db.migrations.executor import MigrationExecutor
from django.db.utils import load_backend

OK = "ok"
_check_threads = ThreadPoolExecutor(max_workers=2, thread_name_prefix="readyz")
_migrated: set[str] = set()  # "default" once every migration was seen applied: not checked again


def liveness() -> tuple[int, dict[str, object]]:
    return 200, {"status": "alive"}


def failure(error: BaseException) -> str:
    """What failed, without the error's text (which can name hosts and users)."""
    return f"failed ({type(error).__name__})"


def own_connection() -> BaseDatabaseWrapper:
    """A connection to the default database outside the process's pool (server/settings.py): a
    database that is down fails its connect at once, where the pool would wait for a free one."""
    settings_dict = dict(connections.settings["default"])
    settings_dict["OPTIONS"] = {key: value for key, value in settings_dict["OPTIONS"].items() if key != "pool"}
    wrapper: BaseDatabaseWrapper = load_backend(settings_dict["ENGINE"]).DatabaseWrapper(settings_dict, "default")
    return wrapper


def check_database() -> dict[str, str]:
    """The database and its migrations, on a connection opened and closed here."""
    connection = own_connection()
    try:
        try:
            with connection.cursor() as cursor:
                cursor.execute("SELECT 1")
        except Exception as error:
            return {"database": failure(error), "migrations": "not checked"}
        if "default" not in _migrated:
            executor = MigrationExecutor(connection)
            unapplied = executor.migration_plan(executor.loader.graph.leaf_nodes())
            if unapplied:
                return {"database": OK, "migrations": f"failed ({len(unapplied)} unapplied)"}
            _migrated.add("default")
        return {"database": OK, "migrations": OK}
    finally:
        connection.close()


def redis_hosts() -> list[str]:
    """The Redis URLs of the default channel layer (none for the in-memory layer)."""
    layer: dict[str, Any] = settings.CHANNEL_LAYERS["default"]
    if not str(layer["BACKEND"]).startswith(("channels_redis", "server.channel_layer")):
        return []
    hosts: list[Any] = layer.get("CONFIG", {}).get("hosts", [])
    return [host if isinstance(host, str) else host["address"] for host in hosts]


async def check_channel_layer(timeout: float) -> str:
    import redis.asyncio as aioredis  # only with a Redis layer (channels_redis requires it)

    if get_channel_layer() is None:
        return "failed (no layer)"
    for url in redis_hosts():
        client = aioredis.Redis.from_url(url, socket_connect_timeout=timeout, socket_timeout=timeout)
        try:
            await client.ping()
        except Exception as error:
            return failure(error)
        finally:
            await client.aclose()
    return OK


async def readiness() -> tuple[int, dict[str, object]]:
    timeout = float(settings.FOOT_READY_TIMEOUT)
    loop = asyncio.get_running_loop()
    try:
        checks = await asyncio.wait_for(loop.run_in_executor(_check_threads, check_database), timeout)
    except TimeoutError:
        checks = {"database": "failed (timeout)", "migrations": "not checked"}
    try:
        checks["channel_layer"] = await asyncio.wait_for(check_channel_layer(timeout), timeout * 2)
    except TimeoutError:
        checks["channel_layer"] = "failed (timeout)"
    failed = sorted(part for part, outcome in checks.items() if outcome not in (OK, "not checked"))
    if failed:
        return 503, {"status": "not ready", "failed": failed, "checks": checks}
    return 200, {"status": "ready", "checks": checks}
