import boardcore.reference as ref
import pytest
from processes import Children

# A session that leaves a process running fails and names it (tests/leftover_processes.py).
pytest_plugins = ["leftover_processes"]


@pytest.fixture
def children():
    """Starts the test's child processes (``start``, ``run``, ``spawn``: tests/processes.py), with
    SIGINT at its default action so that the Ctrl-C a test sends arrives even where the suite runs
    with SIGINT ignored; kills each one's process group and waits for it when the test ends,
    whatever the outcome."""
    started = Children()
    yield started
    started.end_all()


def _engine_classes(name: str) -> list[type]:
    """The engine's class of game ``name``, or none when the compiled engine is not built (yet):
    then the reference is tested alone."""
    try:
        import boardcore as bc

        return [getattr(bc, name)]
    except Exception:
        return []


def implementations(name: str) -> list[type]:
    """Each implementation of game ``name``: the reference twin, then the engine's class."""
    return [getattr(ref, name), *_engine_classes(name)]


def _game_fixture(name: str):
    """A fixture giving each implementation of game ``name`` in turn: the reference twin, then the
    engine's class, so that every rule test runs against both."""

    @pytest.fixture(name=name, params=implementations(name), ids=lambda c: c.__module__)
    def implementation(request):
        return request.param

    return implementation


Reversi = _game_fixture("Reversi")
Cephalopod = _game_fixture("Cephalopod")
Rive = _game_fixture("Rive")
Strands = _game_fixture("Strands")
