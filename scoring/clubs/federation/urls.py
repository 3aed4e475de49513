"""A federation's addresses, and a club's side of them (included in clubs/urls.py; a club
leaving is an admin action, scoring/clubs/views/actions.py)."""

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
    path("federations/<slug:federation>/admins", views.federation_admins, name="federation_admins"),
    path(
        "federations/<slug:federation>/admins/<int:admin_id>/remove",
        views.federation_admin_remove,
        name="federation_admin_remove",
    ),
    path("federations/<slug:federation>/delete", views.federation_delete, name="federation_delete"),
    path("clubs/<slug:club>/federations/", views.club_federations, name="club_federations"),
    path(
        "clubs/<slug:club>/federations/<slug:federation>/answer",
        views.club_federation_answer,
        name="club_federation_answer",
    ),
]
