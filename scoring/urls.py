from django.urls import path

from . import views

urlpatterns = [
    path("", views.home, name="home"),
    path("healthz", views.healthz, name="healthz"),
    path("rules", views.rules, name="rules"),
    path("referee/trick", views.calculator, name="calculator"),
    path("games/new", views.new_game, name="new_game"),
    path("games/import", views.import_game, name="import_game"),
    path("games/<int:pk>/", views.game, name="game"),
    path("games/<int:pk>/hands", views.add_hand, name="add_hand"),
    path("games/<int:pk>/hands/<int:number>/edit", views.edit_hand, name="edit_hand"),
    path("games/<int:pk>/hands/<int:number>/undo", views.undo_hand, name="undo_hand"),
    path("games/<int:pk>/hands/<int:number>/play", views.play_hand, name="play_hand"),
    path("games/<int:pk>/rematch", views.rematch, name="rematch"),
    path("games/<int:pk>/record.json", views.record_json, name="record_json"),
    path("games/<int:pk>/settlement", views.settlement, name="settlement"),
    path("games/<int:pk>/settlement.pdf", views.settlement_pdf, name="settlement_pdf"),
    path("games/<int:pk>/abandon", views.abandon, name="abandon"),
    path("games/<int:pk>/resume", views.resume, name="resume"),
]
