import pytest

from .toygames import ChainNimGame, MNKGame, TricksGame


@pytest.fixture
def ttt() -> MNKGame:
    return MNKGame()


@pytest.fixture
def mnk443() -> MNKGame:
    return MNKGame(m=4, n=4, k=3)


@pytest.fixture
def three_player() -> MNKGame:
    return MNKGame(m=4, n=4, k=3, players=3)


@pytest.fixture
def nim() -> ChainNimGame:
    return ChainNimGame()


@pytest.fixture
def tricks() -> TricksGame:
    return TricksGame()
