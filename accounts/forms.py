from django import forms
from django.conf import settings
from django.contrib.auth.forms import UserCreationForm
from django.utils.translation import gettext_lazy as _

from accounts.models import Club, User


def _check_email_free(email: str, user: User | None = None) -> str:
    # Password reset mails every account with the address, so one address, one account.
    taken = User.objects.filter(email__iexact=email)
    if user is not None:
        taken = taken.exclude(pk=user.pk)
    if email and taken.exists():
        raise forms.ValidationError(_("Another account already uses this email address."))
    return email


class SignupForm(UserCreationForm):
    email = forms.EmailField(
        label=_("Email"),
        help_text=_("Only used to reset your password."),
    )

    class Meta(UserCreationForm.Meta):
        model = User
        fields = ("username", "email")

    def clean_email(self) -> str:
        return _check_email_free(self.cleaned_data["email"])


class SettingsForm(forms.ModelForm):
    class Meta:
        model = User
        fields = ("display_name", "email", "preferred_language", "turn_emails")
        help_texts = {"display_name": _("Shown to other players instead of your username.")}

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["preferred_language"].choices = [
            ("", _("Same as my browser")),
            *settings.LANGUAGES,
        ]

    def clean_email(self) -> str:
        return _check_email_free(self.cleaned_data["email"], self.instance)


class ClubForm(forms.ModelForm):
    class Meta:
        model = Club
        fields = ("name", "description")
        widgets = {"description": forms.Textarea(attrs={"rows": 4})}

    def clean_name(self) -> str:
        name = self.cleaned_data["name"].strip()
        taken = Club.objects.filter(name__iexact=name)
        if self.instance.pk:
            taken = taken.exclude(pk=self.instance.pk)
        if taken.exists():
            raise forms.ValidationError(
                _("A club called “%(name)s” already exists. Please choose another name."),
                params={"name": name},
                code="duplicate",
            )
        return name
