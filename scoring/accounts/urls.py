"""Accounts: Django's own views (login, logout, password change and reset), signing up, and
one's account page."""

from django.urls import include, path

from . import views

urlpatterns = [
    path("", views.account, name="account"),
    path("signup/", views.signup, name="signup"),
    path("my-data.json", views.my_data, name="my_data"),
    path("delete/", views.delete_account, name="delete_account"),
    path("deleted/", views.account_deleted, name="account_deleted"),
    path("password_reset/", views.password_reset, name="password_reset"),
    path("", include("django.contrib.auth.urls")),
]
