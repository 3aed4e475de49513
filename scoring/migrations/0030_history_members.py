"""The club's history names members by id (issue 39, item 2): a line about a member keeps
him (``member``), a line naming several their ids (``members``), and the history says their
names as they are now. Filled here for the lines there are, each club's read from the
newest back, so that a name is the member's who had it at the line's time: a rename's
older lines named him by his name before it, a merge's named the kept player by the merged
one's too, and a name added or deleted then was no member's before. A line whose names
are no member's stays as it was stored."""

import django.db.models.deletion
from django.db import migrations, models

ABOUT_A_MEMBER = frozenset(
    {
        "member_added",
        "member_joined",
        "claim_made",
        "claim_accepted",
        "claim_refused",
        "role_changed",
        "member_renamed",
        "members_merged",
        "member_anonymised",
        "public_name_set",
        "member_retired",
        "member_returned",
        "feed_key_changed",
        "change_undone",
    }
)


def _text(value, key):
    found = value.get(key) if isinstance(value, dict) else None
    return found if isinstance(found, str) else None


def _named(line):
    """The names a line of several names, in their order (a game's in its seats')."""
    if line.action == "game_deleted":
        record = line.before if isinstance(line.before, dict) else {}
        players = record.get("players")
        if isinstance(players, list):
            return [str(one) for one in players]
        return line.subject.split(", ")
    if line.action == "game_moved":
        return line.subject.split(", ")
    night = line.before if isinstance(line.before, dict) else {}
    names = [*night.get("present", []), *night.get("left", [])]
    for drawn in night.get("rounds_drawn", []):
        names += [one for table in drawn.get("tables", []) for one in table]
        names += drawn.get("sitting_out", [])
    return list(dict.fromkeys(str(one) for one in names))


def link_members(apps, schema_editor):
    from scoring.engine.names import name_key

    Member = apps.get_model("scoring", "Member")
    ClubChange = apps.get_model("scoring", "ClubChange")
    for club_id in ClubChange.objects.values_list("club_id", flat=True).distinct():
        # Who had each name (by its key) at the time of the line being read.
        holder = dict(Member.objects.filter(club_id=club_id).values_list("key", "pk"))
        lines = []
        for line in ClubChange.objects.filter(club_id=club_id).order_by("-pk"):
            subject = name_key(line.subject)
            if line.action == "member_removed":
                holder[subject] = None
            elif line.action in ABOUT_A_MEMBER:
                named = {
                    "member_renamed": _text(line.after, "name"),
                    "members_merged": _text(line.after, "into"),
                }.get(line.action)
                line.member_id = holder.get(name_key(named) if named else subject)
            elif line.action in ("game_deleted", "game_moved", "night_deleted"):
                ids = [holder.get(name_key(name)) for name in _named(line)]
                if line.action == "night_deleted":
                    ids = list(dict.fromkeys(one for one in ids if one is not None))
                line.members = ids if any(one is not None for one in ids) else None
            if line.member_id is not None or line.members is not None:
                lines.append(line)
            # The names of the lines before this one.
            was, now = _text(line.before, "name"), _text(line.after, "name")
            if line.action in ("member_renamed", "change_undone") and was and now:
                kept = holder.pop(name_key(now), None)
                holder[name_key(was)] = kept
            elif line.action == "members_merged" and was:
                holder[name_key(was)] = line.member_id
            elif line.action == "member_added" or (
                line.action in ("member_joined", "claim_made")
                and isinstance(line.after, dict)
                and line.after.get("new") is True
            ):
                holder[subject] = None
        ClubChange.objects.bulk_update(lines, ["member", "members"], batch_size=500)


class Migration(migrations.Migration):
    dependencies = [
        ("scoring", "0029_email_verified_owner"),
    ]

    operations = [
        migrations.AddField(
            model_name="clubchange",
            name="member",
            field=models.ForeignKey(
                blank=True,
                null=True,
                on_delete=django.db.models.deletion.SET_NULL,
                related_name="+",
                to="scoring.member",
            ),
        ),
        migrations.AddField(
            model_name="clubchange",
            name="members",
            field=models.JSONField(blank=True, null=True),
        ),
        migrations.RunPython(link_members, migrations.RunPython.noop),
    ]
