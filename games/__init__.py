"""The one way the apps reach the games: the registry of games, each game's adapter, the table
builder, reading moves, replays and what each seat may see.  It has no URLs and no models; it
stands between the pure engine (``rules/engine/``) and the apps above it."""
