"""The whole site in one file, and back into an empty database: ``manage.py backup FILE``
and ``manage.py restore FILE`` (README, "Backup and restore").

The file is a zip: ``manifest.json`` (the format, the app's version, the migrations
applied, and each table's columns, row count and SHA-256) and ``tables/<table>.jsonl`` for
each table, one JSON array of column values a line, in primary-key order. The tables are
every concrete model Django knows, found from its app registry (so that a model added
later is carried without touching this module), but those :data:`LEFT_OUT` says, each
with its reason.

Values are written exactly: datetimes with their microseconds and offset, decimals as
text, binary in base 64, JSON as it is. A restore writes each row's own primary key with
a plain INSERT per batch, which no model signal hears: the rows the site derives (game
summaries, league results and ratings) come back as they were, not recomputed.
"""

import base64
import hashlib
import json
import os
import uuid
import zipfile
import zlib
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta
from decimal import Decimal
from graphlib import CycleError, TopologicalSorter
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path
from typing import TYPE_CHECKING, Any

from django.apps import apps
from django.core.exceptions import ValidationError
from django.core.management.color import no_style
from django.db import DatabaseError, connections, models, transaction
from django.db.backends.base.base import BaseDatabaseWrapper
from django.db.migrations.loader import MigrationLoader
from django.utils import timezone
from django.utils.duration import duration_iso_string

FORMAT = "boulmous-backup/1"
MANIFEST = "manifest.json"
ENTRY_KEYS = {"table", "columns", "rows", "sha256"}
"""What the manifest says of each table."""
CHUNK = 2000
"""Rows read from the database at a time, and rows per INSERT: memory stays flat however
large a table is."""

LEFT_OUT = {
    "sessions": "who is signed in on which browser: people sign in again after a restore",
    "contenttypes": "made by migrate; a row that refers to one names it (natural key)",
    "auth.permission": "made by migrate; a row that refers to one names it (natural key)",
    "admin": "the admin site's log of its own changes",
    "axes": "failed sign-ins and lockouts: transient",
    "scoring.job": "long work queued or done (issue 43): its input files are not carried",
}
"""What the backup leaves out, by app label or model label, and why."""

if TYPE_CHECKING:
    Field = models.Field[Any, Any]
else:  # Django's fields take no type arguments at run time
    Field = models.Field
Model = type[models.Model]


class BackupError(Exception):
    """Why a backup or a restore did not happen, in words for the one who ran it."""


def _left_out(model: Model) -> bool:
    meta = model._meta
    return meta.app_label in LEFT_OUT or meta.label_lower in LEFT_OUT


def carried_models() -> list[Model]:
    """Every model whose table the backup carries, each after those it refers to."""
    carried = sorted(
        (
            model
            for model in apps.get_models(include_auto_created=True)
            if model._meta.managed and not model._meta.proxy and not _left_out(model)
        ),
        key=lambda model: model._meta.label_lower,
    )

    def order(required_only: bool) -> list[Model]:
        graph: TopologicalSorter[Model] = TopologicalSorter()
        for model in carried:
            graph.add(
                model,
                *(
                    field.related_model
                    for field in model._meta.local_concrete_fields
                    if isinstance(field.related_model, type)
                    and field.related_model in carried
                    and field.related_model is not model
                    and not (required_only and field.null)
                ),
            )
        return list(graph.static_order())

    try:
        return order(required_only=False)
    except CycleError:  # tables that refer to each other: the optional links wait
        return order(required_only=True)


@dataclass(frozen=True)
class Table:
    """One model's own table: the columns it holds, by field."""

    model: Model

    @property
    def name(self) -> str:
        return self.model._meta.db_table

    @property
    def member(self) -> str:
        return f"tables/{self.name}.jsonl"

    @property
    def fields(self) -> dict[str, Field]:
        """The columns written by an INSERT: a generated column is the database's own."""
        return {
            field.attname: field
            for field in self.model._meta.local_concrete_fields
            if not field.generated
        }

    def column(self, attname: str) -> str:
        return str(self.fields[attname].column)  # a concrete field's column is never None

    def named(self) -> dict[str, Field]:
        """The fields that refer to a table left out, which a row names by natural key."""
        named = {}
        for attname, field in self.fields.items():
            target = field.related_model
            if not isinstance(target, type) or not _left_out(target):
                continue
            if not hasattr(target, "natural_key"):
                raise BackupError(
                    f"{self.model._meta.label}.{field.name} refers to "
                    f"{target._meta.label}, which the backup leaves out, and has no "
                    "natural key to name it by"
                )
            named[attname] = field
        return named


def _natural_keys(model: Model, using: str) -> dict[Any, list[Any]]:
    rows = model._base_manager.using(using).select_related()
    return {row.pk: list(row.natural_key()) for row in rows}  # type: ignore[attr-defined]


def _ids_by_natural_key(model: Model, using: str) -> dict[tuple[Any, ...], Any]:
    return {tuple(key): pk for pk, key in _natural_keys(model, using).items()}


def _encode(field: Field, value: Any) -> Any:
    """A column's value as JSON, exactly."""
    if value is None or isinstance(field, models.JSONField):
        return value
    if isinstance(value, bool | int | float | str):
        return value
    if isinstance(value, datetime | date | time):
        return value.isoformat()
    if isinstance(value, Decimal | uuid.UUID):
        return str(value)
    if isinstance(value, bytes | memoryview):
        return base64.b64encode(value).decode("ascii")
    if isinstance(value, timedelta):
        return duration_iso_string(value)
    raise BackupError(f"{field.model._meta.label}.{field.name}: cannot write a {type(value)}")


def applied_migrations(connection: BaseDatabaseWrapper) -> list[str]:
    """The migrations applied to this database that the code knows, as ``app.name``."""
    loader = MigrationLoader(connection, ignore_no_migrations=True)
    return sorted(
        f"{app}.{name}"
        for app, name in loader.applied_migrations or {}
        if (app, name) in loader.graph.nodes
    )


def _app_version() -> str:
    try:
        return version("boulmous")
    except PackageNotFoundError:
        return "unknown"


@dataclass(frozen=True)
class Done:
    tables: int
    rows: int


def write_backup(path: Path, using: str) -> Done:
    """Every carried table into a new file at ``path``, from one snapshot of the database.

    Written beside it first and renamed at the end, so that a backup cut short never
    leaves a file that looks whole."""
    if path.exists():
        raise BackupError(f"{path}: exists already; back up to a new file")
    tables = [Table(model) for model in carried_models()]
    connection = connections[using]
    partial = path.with_name(f".{path.name}.partial")
    try:
        outermost = not connection.in_atomic_block
        with transaction.atomic(using=using):
            if outermost and connection.vendor == "postgresql":
                # One snapshot for every table, while the site goes on writing.
                with connection.cursor() as cursor:
                    cursor.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY")
            with zipfile.ZipFile(partial, "w", compression=zipfile.ZIP_DEFLATED) as archive:
                entries = [_write_table(archive, table, using) for table in tables]
                manifest = {
                    "format": FORMAT,
                    "app_version": _app_version(),
                    "made_at": timezone.now().isoformat(),
                    "database": connection.vendor,
                    "migrations": applied_migrations(connection),
                    "left_out": LEFT_OUT,
                    "tables": entries,
                }
                archive.writestr(MANIFEST, json.dumps(manifest, indent=1) + "\n")
        os.replace(partial, path)
    except DatabaseError as error:
        partial.unlink(missing_ok=True)
        raise BackupError(f"cannot read the database ({error}): is it migrated?") from None
    except BaseException:
        partial.unlink(missing_ok=True)
        raise
    return Done(len(entries), sum(entry["rows"] for entry in entries))


def _write_table(archive: zipfile.ZipFile, table: Table, using: str) -> dict[str, Any]:
    fields = table.fields
    named = {
        attname: _natural_keys(field.related_model, using)  # type: ignore[arg-type]
        for attname, field in table.named().items()
    }
    columns = list(fields)
    encoders = [_encoder(fields[name], named.get(name)) for name in columns]
    digest = hashlib.sha256()
    count = 0
    rows = table.model._base_manager.using(using).order_by("pk").values_list(*columns)
    # Named with the time it was written (a member opened by name would say 1980).
    info = zipfile.ZipInfo(table.member, date_time=datetime.now().timetuple()[:6])
    info.compress_type = zipfile.ZIP_DEFLATED
    with archive.open(info, "w", force_zip64=True) as member:
        lines: list[bytes] = []
        for row in rows.iterator(chunk_size=CHUNK):
            values = [encode(value) for encode, value in zip(encoders, row, strict=True)]
            lines.append(json.dumps(values, ensure_ascii=False, separators=(",", ":")).encode())
            lines.append(b"\n")
            count += 1
            if len(lines) >= 2 * CHUNK:
                _flush(member, digest, lines)
        _flush(member, digest, lines)
    return {
        "table": table.name,
        "model": table.model._meta.label_lower,
        "columns": columns,
        "rows": count,
        "sha256": digest.hexdigest(),
    }


def _encoder(field: Field, keys: dict[Any, list[Any]] | None) -> Callable[[Any], Any]:
    if keys is not None:
        return lambda value: None if value is None else keys[value]
    return lambda value: _encode(field, value)


def _flush(member: Any, digest: Any, lines: list[bytes]) -> None:
    block = b"".join(lines)
    digest.update(block)
    member.write(block)
    lines.clear()


# --- restore ------------------------------------------------------------------------------


def restore(path: Path, using: str) -> Done:
    """The backup at ``path`` into the database ``using``, which must be migrated to the
    same migrations as the one backed up, and empty. All in one transaction: any refusal
    or damage leaves the database as it was."""
    connection = connections[using]
    tables = {table.name: table for table in map(Table, carried_models())}
    try:
        with zipfile.ZipFile(path) as archive:
            entries = _read_manifest(path, archive, connection, tables)
            _check_empty(connection, tables.values(), using)
            _verify(path, archive, entries)
            with transaction.atomic(using=using):
                rows = sum(
                    _load(archive, entry, tables[entry["table"]], using) for entry in entries
                )
                with connection.cursor() as cursor:
                    models_loaded = [table.model for table in tables.values()]
                    for sql in connection.ops.sequence_reset_sql(no_style(), models_loaded):
                        cursor.execute(sql)
    except OSError as error:
        raise BackupError(f"{path}: {error.strerror or error}") from None
    except (zipfile.BadZipFile, zlib.error, EOFError) as error:
        raise BackupError(f"{path}: damaged ({error}); nothing was restored") from None
    except (DatabaseError, ValidationError, ValueError, TypeError, KeyError) as error:
        raise BackupError(
            f"{path}: refused by the database ({error}); nothing was restored"
        ) from None
    return Done(len(entries), rows)


def _read_manifest(
    path: Path, archive: zipfile.ZipFile, connection: BaseDatabaseWrapper, tables: dict[str, Table]
) -> list[dict[str, Any]]:
    """The manifest's tables, once checked against this database's migrations and tables."""
    try:
        manifest = json.loads(archive.read(MANIFEST))
        if manifest["format"] != FORMAT:
            raise ValueError(manifest["format"])
        entries: list[dict[str, Any]] = manifest["tables"]
        migrations = set(manifest["migrations"])
        if not all(entry.keys() >= ENTRY_KEYS for entry in entries):
            raise ValueError(entries)
    except (KeyError, TypeError, ValueError, AttributeError):
        raise BackupError(f"{path}: not a backup made by `manage.py backup`") from None
    here = set(applied_migrations(connection))
    if not here:
        raise BackupError(
            f"the database {connection.settings_dict['NAME']} is not migrated: "
            "run manage.py migrate, then restore"
        )
    if migrations != here:
        raise BackupError(_migrations_differ(path, migrations, here))
    found = {entry["table"]: set(entry["columns"]) for entry in entries}
    expected = {name: set(table.fields) for name, table in tables.items()}
    if found != expected:
        different = sorted(set(found) ^ set(expected)) or sorted(
            name for name in found if found[name] != expected[name]
        )
        raise BackupError(
            f"{path}: its tables are not this site's ({', '.join(different)}): it was made "
            "by another version of the app"
        )
    return entries


def _migrations_differ(path: Path, backup: set[str], here: set[str]) -> str:
    lines = [f"{path}: made at other migrations than this database's"]
    if backup - here:
        lines.append(f"  in the backup, not here: {', '.join(sorted(backup - here))}")
    if here - backup:
        lines.append(f"  here, not in the backup: {', '.join(sorted(here - backup))}")
    heads: dict[str, str] = {}
    for label in sorted(backup):  # migrations are numbered: an app's last sorts last
        app, name = label.split(".", 1)
        heads[app] = name
    changed = sorted({label.split(".", 1)[0] for label in backup ^ here})
    steps = "; ".join(f"manage.py migrate {app} {heads[app]}" for app in changed if app in heads)
    lines.append(
        "Migrate this database to the backup's migrations"
        + (f" ({steps})" if steps else "")
        + ", restore, then migrate."
    )
    return "\n".join(lines)


def _check_empty(connection: BaseDatabaseWrapper, tables: Iterable[Table], using: str) -> None:
    full = [table.name for table in tables if table.model._base_manager.using(using).exists()]
    if full:
        name = connection.settings_dict["NAME"]
        raise BackupError(
            f"the database {name} is not empty ({', '.join(full)} hold rows): restore into "
            "a new database, migrated and empty"
        )


def _verify(path: Path, archive: zipfile.ZipFile, entries: Sequence[dict[str, Any]]) -> None:
    """Every table's rows and checksum as the manifest says, before anything is written."""
    for entry in entries:
        digest = hashlib.sha256()
        rows = 0
        try:
            with archive.open(f"tables/{entry['table']}.jsonl") as member:
                while block := member.read(1 << 20):
                    digest.update(block)
                    rows += block.count(b"\n")
        except KeyError:
            raise BackupError(
                f"{path}: damaged (table {entry['table']} is missing); nothing was restored"
            ) from None
        if (rows, digest.hexdigest()) != (entry["rows"], entry["sha256"]):
            raise BackupError(
                f"{path}: damaged (table {entry['table']} is not what was written); "
                "nothing was restored"
            )


def verify_file(path: Path) -> dict[str, int]:
    """Each table's rows in the backup at ``path``, once every table's rows and checksum
    are read back as its manifest says; BackupError if the file is not whole."""
    try:
        with zipfile.ZipFile(path) as archive:
            manifest = json.loads(archive.read(MANIFEST))
            if manifest.get("format") != FORMAT:
                raise ValueError(manifest.get("format"))
            entries: list[dict[str, Any]] = manifest["tables"]
            _verify(path, archive, entries)
    except (zipfile.BadZipFile, KeyError, TypeError, ValueError, AttributeError):
        raise BackupError(f"{path}: not a whole backup") from None
    return {entry["table"]: int(entry["rows"]) for entry in entries}


def table_rows(using: str) -> dict[str, int]:
    """Each carried table's rows in the database ``using``, as a backup counts them."""
    return {
        table.name: table.model._base_manager.using(using).count()
        for table in map(Table, carried_models())
    }


def _load(archive: zipfile.ZipFile, entry: dict[str, Any], table: Table, using: str) -> int:
    connection = connections[using]
    fields = table.fields
    named = table.named()
    columns: list[str] = entry["columns"]
    decoders = [
        _by_natural_key(fields[name], using, connection)
        if name in named
        else _decoder(fields[name], connection)
        for name in columns
    ]
    quote = connection.ops.quote_name
    sql = (
        f"INSERT INTO {quote(table.name)} "
        f"({', '.join(quote(table.column(name)) for name in columns)}) "
        f"VALUES ({', '.join(['%s'] * len(columns))})"
    )
    count = 0
    with archive.open(table.member) as member, connection.cursor() as cursor:
        for batch in _batches(member):
            cursor.executemany(
                sql,
                [
                    [
                        decode(value)
                        for decode, value in zip(decoders, json.loads(line), strict=True)
                    ]
                    for line in batch
                ],
            )
            count += len(batch)
    return count


def _batches(member: Any) -> Iterator[list[bytes]]:
    batch: list[bytes] = []
    for line in member:
        batch.append(line)
        if len(batch) == CHUNK:
            yield batch
            batch = []
    if batch:
        yield batch


def _decoder(field: Field, connection: BaseDatabaseWrapper) -> Callable[[Any], Any]:
    if isinstance(field, models.JSONField):
        return lambda value: field.get_db_prep_save(value, connection)
    return lambda value: field.get_db_prep_save(field.to_python(value), connection)


def _by_natural_key(
    field: Field, using: str, connection: BaseDatabaseWrapper
) -> Callable[[Any], Any]:
    target: Model = field.related_model  # type: ignore[assignment]
    ids = _ids_by_natural_key(target, using)

    def decode(value: Any) -> Any:
        if value is None:
            return None
        try:
            return field.get_db_prep_save(ids[tuple(value)], connection)
        except KeyError:
            raise BackupError(
                f"{field.model._meta.label}.{field.name}: {target._meta.label} "
                f"{' '.join(map(str, value))} is not in this database: migrate it first"
            ) from None

    return decode
