"""The league fixtures: tournaments are run by the same club and personas."""

from tests.leagues.conftest import *  # noqa: F403
