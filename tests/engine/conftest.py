"""Each engine test starts with firstmeld's caches empty.

`firstmeld.natural_split` and `best_naturals` are memoised (lru_cache). A test must not depend on
what earlier tests left there: mutation testing (mutmut) forks each mutant's run from a process
that already ran the suite, and a warm cache would hide a mutant of the cached functions.
"""

import pytest

from games.engine import firstmeld


@pytest.fixture(autouse=True)
def _empty_first_meld_caches():
    firstmeld.natural_split.cache_clear()
    firstmeld.best_naturals.cache_clear()
