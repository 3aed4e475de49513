"""The request as the views see it, once the site's middleware has run."""

from django.http import HttpRequest, HttpResponse, StreamingHttpResponse
from django_htmx.middleware import HtmxDetails

from .rights import Actor, PhoneRights


class HtmxHttpRequest(HttpRequest):
    """A request that went through the site's middleware (installed for every request):
    django-htmx's, and :class:`~scoring.common.rights.RequestRights`."""

    htmx: HtmxDetails
    phone: PhoneRights
    actor: Actor


def attachment(response: HttpResponse | StreamingHttpResponse, name: str) -> None:
    """The answer is a file to download, under ``name`` (the site's own, ASCII)."""
    response["Content-Disposition"] = f'attachment; filename="{name}"'
