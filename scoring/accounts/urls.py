"""Accounts: Django's own views (login, logout, password change and reset), signing up, and
one's account page with its email address."""

from django.urls import include, path

from . import views

urlpatterns = [
    path("", views.account, name="account"),
    path("signup/", views.signup, name="signup"),
    path("email/", views.change_email, name="email_change"),
    path("email/resend/", views.resend_link, name="email_resend"),
    path("email/sent/", views.email_sent, name="email_sent"),
    path("email/verify/<str:token>/", views.verify_email, name="email_verify"),
    path("tokens/new", views.new_api_token, name="api_token_new"),
    path("tokens/<int:token_id>/revoke", views.revoke_api_token, name="api_token_revoke"),
    path("my-data.json", views.my_data, name="my_data"),
    path("delete/", views.delete_account, name="delete_account"),
    path("deleted/", views.account_deleted, name="account_deleted"),
    path("password_reset/", views.password_reset, name="password_reset"),
    path("", include("django.contrib.auth.urls")),
]
