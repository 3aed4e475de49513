"""The machinery's own rows: each backup the daily job took or failed to take."""

from django.db import models
from django.utils import timezone


class BackupRun(models.Model):
    """One run of the daily backup (scoring/management/backups.py): the file it wrote and
    verified, or why it failed (a full disk, a database that cannot be read). The health
    page ``/healthz/backup`` reads the last ones."""

    started_at = models.DateTimeField(default=timezone.now)
    finished_at = models.DateTimeField(null=True, blank=True)
    ok = models.BooleanField(default=False)
    file = models.CharField(max_length=200, blank=True)
    rows = models.BigIntegerField(default=0)
    reason = models.TextField(blank=True)

    class Meta:
        app_label = "scoring"
        indexes = [models.Index(fields=["-started_at"], name="backup_run_latest")]
