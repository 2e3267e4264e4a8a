"""What every app stands on and none of them owns: background work after commit, the Celery
app and its broker connection, the Redis channel layer and connection pool, the claims on
work under way, and the workers' heartbeats and sweeps. It imports no app of the site
(pyproject.toml's import contracts), and the apps reach it, never the project (`ctg_site`).

Its signal handlers (a worker's start, a task taken or finished, beat's start) are connected
in `InfraConfig.ready()`, so no module of it has to import another for its side effects.
"""
