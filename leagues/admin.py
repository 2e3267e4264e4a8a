from django.contrib import admin

from leagues.models import League, PlayedGame, PlayedSeat, PlayerRating, RecomputeJob, RoundScore


@admin.register(League)
class LeagueAdmin(admin.ModelAdmin):
    list_display = ["name", "club", "starts_on", "ends_on", "is_open"]
    list_filter = ["is_open", "club"]
    search_fields = ["name", "club__name"]
    readonly_fields = ["results_version", "table_version", "table", "table_updated"]


class PlayedSeatInline(admin.TabularInline):
    model = PlayedSeat
    extra = 0
    readonly_fields = ["total", "place", "best_round"]


@admin.register(PlayedGame)
class PlayedGameAdmin(admin.ModelAdmin):
    list_display = ["played_at", "club", "league", "source", "status", "rated"]
    list_filter = ["status", "source", "rated"]
    inlines = [PlayedSeatInline]


@admin.register(RoundScore)
class RoundScoreAdmin(admin.ModelAdmin):
    list_display = ["seat", "round_no", "score", "bonus"]


@admin.register(PlayerRating)
class PlayerRatingAdmin(admin.ModelAdmin):
    list_display = ["user", "game", "display", "mu", "sigma", "games"]
    list_filter = ["game"]
    search_fields = ["user__username"]


@admin.register(RecomputeJob)
class RecomputeJobAdmin(admin.ModelAdmin):
    list_display = ["created", "game", "reason", "status", "done", "total", "from_played_at"]
    list_filter = ["status", "game"]
