from django.contrib import admin
from django.contrib.auth.admin import UserAdmin as BaseUserAdmin
from django.utils.translation import gettext_lazy as _

from accounts.models import Club, Membership, User


@admin.register(User)
class UserAdmin(BaseUserAdmin):
    fieldsets = (
        *(BaseUserAdmin.fieldsets or ()),
        (_("Call to Glory"), {"fields": ("display_name", "preferred_language", "turn_emails")}),
    )
    list_display = ("username", "display_name", "email", "preferred_language", "is_staff")
    list_filter = (*BaseUserAdmin.list_filter, "preferred_language")
    search_fields = (*BaseUserAdmin.search_fields, "display_name")


class MembershipInline(admin.TabularInline):
    model = Membership
    extra = 0
    autocomplete_fields = ("user",)


@admin.register(Club)
class ClubAdmin(admin.ModelAdmin):
    list_display = ("name", "slug", "created")
    search_fields = ("name", "slug")
    prepopulated_fields = {"slug": ("name",)}
    readonly_fields = ("created",)
    inlines = [MembershipInline]


@admin.register(Membership)
class MembershipAdmin(admin.ModelAdmin):
    list_display = ("club", "user", "role", "joined")
    list_filter = ("role", "club")
    search_fields = ("club__name", "user__username", "user__display_name")
    autocomplete_fields = ("club", "user")
