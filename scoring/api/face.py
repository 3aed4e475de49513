"""The API's face: what other contexts may use of it, which is nothing (it stands above
them all; only scoring/urls.py routes to it). Something another context needs would be
re-exported here (docs/architecture.md, "Faces")."""

__all__: list[str] = []
