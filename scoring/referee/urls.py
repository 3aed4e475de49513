from django.urls import path

from . import views as referee

urlpatterns = [
    path("rules", referee.rules, name="rules"),
    path("referee/trick", referee.calculator, name="calculator"),
    path("games/<slug:gid>/hands/<int:number>/play", referee.play_hand, name="play_hand"),
]
