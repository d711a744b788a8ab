"""Tutorial URLs (per language prefix)."""

urlpatterns: list = []
