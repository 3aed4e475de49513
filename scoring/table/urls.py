from django.urls import path

from .views import app, disputes, live, records, seats, settle, share, table

urlpatterns = [
    path("", table.home, name="home"),
    path("healthz", records.healthz, name="healthz"),
    path("manifest.webmanifest", app.manifest, name="manifest"),
    path("sw.js", app.service_worker, name="service_worker"),
    path("games/new", table.new_game, name="new_game"),
    path("games/import", records.import_game, name="import_game"),
    path("games/<slug:gid>/", table.game, name="game"),
    # The live view (issue 13): what changed since the version a page shows, in views/live.py.
    path("games/<slug:gid>/live", live.game_live, name="game_live"),
    path("games/<slug:gid>/hands", table.add_hand, name="add_hand"),
    # Hands a phone holds waiting to be sent (issue 20), in waiting.py.
    path("games/<slug:gid>/waiting", table.waiting_hands, name="waiting_hands"),
    path("games/<slug:gid>/hands/<int:number>/edit", table.edit_hand, name="edit_hand"),
    path("games/<slug:gid>/hands/<int:number>/undo", table.undo_hand, name="undo_hand"),
    path("games/<slug:gid>/hands/<int:number>/redo", table.redo_hand, name="redo_hand"),
    path("games/<slug:gid>/rematch", table.rematch, name="rematch"),
    path("games/<slug:gid>/record.json", records.record_json, name="record_json"),
    path("games/<slug:gid>/settlement", settle.settlement, name="settlement"),
    path("games/<slug:gid>/settlement.pdf", settle.settlement_pdf, name="settlement_pdf"),
    # A signed settlement (issue 40.4): on a seat's own phone, or the scorer's passed round.
    path("games/<slug:gid>/settlement/agree", settle.agree, name="agree_settlement"),
    path(
        "games/<slug:gid>/settlement/agree-with-code",
        settle.agree_with_code,
        name="agree_settlement_with_code",
    ),
    path("games/<slug:gid>/abandon", table.abandon, name="abandon"),
    path("games/<slug:gid>/resume", table.resume, name="resume"),
    path("games/<slug:gid>/share", share.share, name="share"),
    # Results that travel (issue 22.3): the image a link pasted in a chat shows.
    path("games/<slug:gid>/preview.png", share.preview, name="game_preview"),
    path("games/<slug:gid>/share/new", share.new_link, name="new_link"),
    path("games/<slug:gid>/share/<int:link_id>/revoke", share.revoke_link, name="revoke_link"),
    path("games/<slug:gid>/score/<slug:secret>", share.join, name="join"),
    # Seats on phones (issue 40.1), in views/seats.py.
    path("games/<slug:gid>/seats", seats.seats, name="seats"),
    path("games/<slug:gid>/seats/new", seats.new_seat_links, name="new_seat_links"),
    path("games/<slug:gid>/seats/<int:seat>/revoke", seats.revoke_seat, name="revoke_seat"),
    # Confirmation (issue 40.2): a seat holder confirms a hand, or signs the result.
    path("games/<slug:gid>/hands/<int:number>/confirm", seats.confirm_hand, name="confirm_hand"),
    path("games/<slug:gid>/sign", seats.sign_game, name="sign_game"),
    # A correction of a confirmed hand, proposed by a scorer, confirmed by another seat.
    path(
        "games/<slug:gid>/hands/<int:number>/proposal/confirm",
        seats.confirm_proposal,
        name="confirm_proposal",
    ),
    # Disputes (issue 40.3): a seat holder disputes a hand; the referee decides it.
    path("games/<slug:gid>/dispute", disputes.dispute_hand, name="dispute_hand"),
    path("games/<slug:gid>/hands/<int:number>/decide", disputes.decide, name="decide"),
    path("seat", seats.take_seat, name="take_seat"),
    path("seat/<slug:secret>", seats.take_seat, name="seat"),
]
