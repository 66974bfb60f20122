"""`python -m benchmarks <name> [options]`: run one benchmark (benchmarks/<name>.py) with Django set up.

The benchmarks are management command classes kept outside the apps, so `manage.py` does not list
them; this runs one the way manage.py would (same options, same --help), with the site's settings.
"""

import importlib
import os
import pkgutil
import sys

import django

import benchmarks


def names() -> list[str]:
    return sorted(
        module.name for module in pkgutil.iter_modules(benchmarks.__path__) if module.name.startswith("bench_")
    )


def main(argv: list[str]) -> int:
    if len(argv) < 2 or argv[1] not in names():
        sys.stderr.write(f"usage: python -m benchmarks <name> [options]; names: {', '.join(names())}\n")
        return 2
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "server.settings")
    django.setup()
    command = importlib.import_module(f"benchmarks.{argv[1]}").Command()
    command.run_from_argv(["python -m benchmarks", *argv[1:]])
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
