from django.urls import path

from .views import app, records, referee, table

urlpatterns = [
    path("", table.home, name="home"),
    path("healthz", records.healthz, name="healthz"),
    path("manifest.webmanifest", app.manifest, name="manifest"),
    path("rules", referee.rules, name="rules"),
    path("referee/trick", referee.calculator, name="calculator"),
    path("games/new", table.new_game, name="new_game"),
    path("games/import", records.import_game, name="import_game"),
    path("games/<int:pk>/", table.game, name="game"),
    path("games/<int:pk>/hands", table.add_hand, name="add_hand"),
    path("games/<int:pk>/hands/<int:number>/edit", table.edit_hand, name="edit_hand"),
    path("games/<int:pk>/hands/<int:number>/undo", table.undo_hand, name="undo_hand"),
    path("games/<int:pk>/hands/<int:number>/redo", table.redo_hand, name="redo_hand"),
    path("games/<int:pk>/hands/<int:number>/play", referee.play_hand, name="play_hand"),
    path("games/<int:pk>/rematch", table.rematch, name="rematch"),
    path("games/<int:pk>/record.json", records.record_json, name="record_json"),
    path("games/<int:pk>/settlement", table.settlement, name="settlement"),
    path("games/<int:pk>/settlement.pdf", table.settlement_pdf, name="settlement_pdf"),
    path("games/<int:pk>/abandon", table.abandon, name="abandon"),
    path("games/<int:pk>/resume", table.resume, name="resume"),
]
