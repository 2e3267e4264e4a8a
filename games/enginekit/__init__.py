"""What the games' pure engines and AIs share: their error types, their command line and the
arena that measures one AI level against another. Pure Python like them: no Django, Channels,
Celery or site app (pyproject.toml's import contracts), typed strictly.
"""
