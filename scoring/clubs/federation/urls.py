"""A federation's addresses, and a club's side of them (included in clubs/urls.py)."""

from django.urls import path

from . import views

urlpatterns = [
    path("federations/", views.federations, name="federations"),
    path("federations/new", views.new_federation, name="new_federation"),
    path("federations/<slug:federation>/", views.federation, name="federation"),
    path("federations/<slug:federation>/ranking.csv", views.federation_csv, name="federation_csv"),
    path("federations/<slug:federation>/ranking.pdf", views.federation_pdf, name="federation_pdf"),
    path(
        "federations/<slug:federation>/settings",
        views.federation_settings,
        name="federation_settings",
    ),
    path("federations/<slug:federation>/invite", views.federation_invite, name="federation_invite"),
    path("clubs/<slug:club>/federations/", views.club_federations, name="club_federations"),
    path(
        "clubs/<slug:club>/federations/<slug:federation>/answer",
        views.club_federation_answer,
        name="club_federation_answer",
    ),
    path(
        "clubs/<slug:club>/federations/<slug:federation>/leave",
        views.club_federation_leave,
        name="club_federation_leave",
    ),
]
