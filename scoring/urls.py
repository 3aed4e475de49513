"""The site's addresses, each context's own: the table's games, the referee's pages, and
clubs. Names are global (``{% url 'game' … %}``), so a page links to another context's
page without importing it."""

from django.urls import include, path

from .management.backups import healthz_backup

urlpatterns = [
    # When the last good backup was taken (issue 43.5; docs/deploy.md, "Backups").
    path("healthz/backup", healthz_backup, name="healthz_backup"),
    path("", include("scoring.table.urls")),
    path("", include("scoring.referee.urls")),
    path("", include("scoring.clubs.urls")),
    # The read API (issue 22), docs/api.md.
    path("api/v1/", include("scoring.api.urls")),
]
