"""Match history: browse, filter, replay, export and import finished games, and a read API.

Its own app because it reads across games (tables and their records), leagues (every
finished game, scores and ratings) and accounts (clubs and who may see them) while owning
none of them: it has no models, and writes only through the other apps' doors
(``leagues.results.record_result`` for imported games).
"""
