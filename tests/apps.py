from django.apps import AppConfig


class TestsConfig(AppConfig):
    """Loaded by the test settings only, in every process the tests run or start."""

    name = "tests"
    label = "ctg_tests"

    def ready(self) -> None:
        from tests import chance

        chance.install()
