import boardcore.reference as ref
import pytest

try:
    import boardcore as bc

    ENGINE = [bc.Reversi]
except Exception:  # the compiled engine is not built (yet): test the reference alone
    ENGINE = []

try:
    import boardcore as bc

    CEPHALOPOD_ENGINE = [bc.Cephalopod]
except Exception:  # no engine, or no Cephalopod in it yet: test the reference alone
    CEPHALOPOD_ENGINE = []

try:
    import boardcore as bc

    RIVE_ENGINE = [bc.Rive]
except Exception:  # no engine, or no Rive in it yet: test the reference alone
    RIVE_ENGINE = []

try:
    import boardcore as bc

    STRANDS_ENGINE = [bc.Strands]
except Exception:  # no engine, or no Strands in it yet: test the reference alone
    STRANDS_ENGINE = []


@pytest.fixture(params=[ref.Reversi, *ENGINE], ids=lambda c: c.__module__)
def Reversi(request):
    return request.param


@pytest.fixture(params=[ref.Cephalopod, *CEPHALOPOD_ENGINE], ids=lambda c: c.__module__)
def Cephalopod(request):
    return request.param


@pytest.fixture(params=[ref.Rive, *RIVE_ENGINE], ids=lambda c: c.__module__)
def Rive(request):
    return request.param


@pytest.fixture(params=[ref.Strands, *STRANDS_ENGINE], ids=lambda c: c.__module__)
def Strands(request):
    return request.param
