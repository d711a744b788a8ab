"""Practice-mode URLs (per language prefix)."""

urlpatterns: list = []
