from django.db import connection
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from .engine import Trump, trump_order


@require_GET
def home(request: HttpRequest) -> HttpResponse:
    return render(request, "scoring/home.html", {"heart_trumps": trump_order(Trump.HEARTS)})


@require_GET
def healthz(request: HttpRequest) -> JsonResponse:
    """Liveness and database reachability, for a load balancer or a monitor."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
    return JsonResponse({"status": "ok"})
