from django.apps import AppConfig


class GamesConfig(AppConfig):
    # An app only so that Django finds its template tags (``{% load cards %}``).
    name = "games"
