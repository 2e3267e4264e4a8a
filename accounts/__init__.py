"""Users and clubs.

Their own app because every other part (play, leagues, tournaments, history) hangs off who a
person is and which clubs they belong to, and none of those apps should own that.
"""
