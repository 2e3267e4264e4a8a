"""Post-game analysis in the site: each seat's stored analysis of a finished game, the
background job that makes it, and what the pages and the read API show of it.

Its own home because it sits between the layers it joins: it reads finished tables and asks
each game's analyser (`Game.analysis`, pure code beside the game's engine) through the
registry, so it sits above games; history shows its results on the game page, the replay,
the player's page and the API, so it sits below history, which reads every app. The jobs run
on a queue of their own ("analysis"), never behind or in front of AI moves.
"""
