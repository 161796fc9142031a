import pytest

import boardcore.reference as ref

try:
    import boardcore as bc

    ENGINE = [bc.Reversi]
except Exception:  # the compiled engine is not built (yet): test the reference alone
    ENGINE = []


@pytest.fixture(params=[ref.Reversi, *ENGINE], ids=lambda c: c.__module__)
def Reversi(request):
    return request.param
