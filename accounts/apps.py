from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class AccountsConfig(AppConfig):
    name = "accounts"
    verbose_name = "Accounts and clubs"

    def ready(self) -> None:
        from django.db.models import fields

        # Django's own Dutch and German catalogues lack this label of an empty choice. Named
        # here, it is extracted into ours, which are looked up first (LOCALE_PATHS).
        fields.BLANK_CHOICE_LABEL = _("- Select an option -")
