import pytest


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--differential", default="40", help="how many random action sequences to check (default 40)")
    parser.addoption("--differential-seed", default="0", help="the seed of the first sequence")
