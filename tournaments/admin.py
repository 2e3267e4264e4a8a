from django.contrib import admin

from tournaments.models import Stage, Tournament, TournamentSeat, TournamentTable


class StageInline(admin.TabularInline):
    model = Stage
    extra = 0


@admin.register(Tournament)
class TournamentAdmin(admin.ModelAdmin):
    list_display = ["name", "club", "mode", "status", "rated", "created"]
    list_filter = ["status", "mode", "club"]
    search_fields = ["name", "club__name"]
    inlines = [StageInline]


class TournamentSeatInline(admin.TabularInline):
    model = TournamentSeat
    extra = 0
    raw_id_fields = ["user"]


@admin.register(TournamentTable)
class TournamentTableAdmin(admin.ModelAdmin):
    list_display = ["round", "number", "players", "online", "game", "online_table"]
    inlines = [TournamentSeatInline]
    raw_id_fields = ["game", "online_table"]
