"""The project: settings, URLs, ASGI, /healthz and the demo data; it wires the apps together."""
