"""Accounts' face: all that other contexts (clubs, the API) may use of accounts. They
import this module only, never accounts' views or other modules (pyproject.toml's
import-linter contracts; docs/architecture.md, "Faces").

Accounts ask the contexts above them through ``hooks`` (an account's data, its
deletion); something new another context needs is re-exported here, from the module that
holds it.
"""

from . import hooks
from .services import AccountNeeded, account_named, expire_claims
from .tokens import PREFIX, digest_of, user_of

__all__ = [
    "PREFIX",
    "AccountNeeded",
    "account_named",
    "digest_of",
    "expire_claims",
    "hooks",
    "user_of",
]
