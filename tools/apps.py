from django.apps import AppConfig


class ToolsConfig(AppConfig):
    """The load test and the benchmarks: management commands only, no models, no pages."""

    name = "tools"
    verbose_name = "tools"
