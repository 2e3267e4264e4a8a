from django.contrib import admin

from games.ctg.models import TaskCards


@admin.register(TaskCards)
class TaskCardsAdmin(admin.ModelAdmin):
    """One row: add it to change the cards, delete it to go back to the rules' default."""

    list_display = ("__str__", "a", "b", "c")

    def has_add_permission(self, request) -> bool:
        return super().has_add_permission(request) and not TaskCards.objects.exists()
