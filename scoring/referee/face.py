"""The referee's face: what other contexts may use of it, which is nothing yet (only
scoring/urls.py routes to its pages). Something another context needs would be
re-exported here, from the module that holds it, never from a view or a page
(docs/architecture.md, "Faces")."""

__all__: list[str] = []
