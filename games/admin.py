from django.contrib import admin

from games.models import ChatMessage, TaskCards


@admin.register(TaskCards)
class TaskCardsAdmin(admin.ModelAdmin):
    """One row: add it to change the cards, delete it to go back to the rules' default."""

    list_display = ("__str__", "a", "b", "c")

    def has_add_permission(self, request) -> bool:
        return super().has_add_permission(request) and not TaskCards.objects.exists()


@admin.register(ChatMessage)
class ChatMessageAdmin(admin.ModelAdmin):
    """Table talk, for removing a line that should not stand."""

    list_display = ("created", "table", "seat", "text")
    search_fields = ("text", "seat__name")
    list_select_related = ("table", "seat")
    raw_id_fields = ("table", "seat")
