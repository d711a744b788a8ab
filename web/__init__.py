"""The site's shared web pieces: htmx answers, form helpers, rate limiting, the layout's
context (navigation, language links) and the few pages that belong to no app (home, the
cards, health check, 404)."""
