from django.contrib import admin

from games.models import ChatMessage


@admin.register(ChatMessage)
class ChatMessageAdmin(admin.ModelAdmin):
    """Table talk, for removing a line that should not stand."""

    list_display = ("created", "table", "seat", "text")
    search_fields = ("text", "seat__name")
    list_select_related = ("table", "seat")
    raw_id_fields = ("table", "seat")
