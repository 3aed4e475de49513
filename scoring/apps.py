from django.apps import AppConfig
from django.core import checks
from django.utils.translation import gettext_lazy as _


class ScoringConfig(AppConfig):
    name = "scoring"
    verbose_name = _("Boulmous scoring")

    def ready(self) -> None:
        from .accounts import hooks as accounts_hooks
        from .checks import check_email_backend, check_secret_key, check_throttles_cache
        from .clubs.subscriptions import subscribe
        from .table.privacy import account_leaves as games_left
        from .table.privacy import account_part as games_of_account

        checks.register(check_secret_key, checks.Tags.security)
        checks.register(check_email_backend, checks.Tags.security)
        checks.register(check_throttles_cache, checks.Tags.security, checks.Tags.caches)
        # Clubs follow the table's games through its hooks; the table never imports clubs.
        subscribe()
        # An account's download holds its games; the table and accounts are neighbours,
        # so the app, above both, wires them.
        if games_of_account not in accounts_hooks.data_parts:
            accounts_hooks.data_parts.insert(0, games_of_account)
        # The history lines he made name no account once he has gone: the games' pages too.
        if games_left not in accounts_hooks.leaving:
            accounts_hooks.leaving.append(games_left)
