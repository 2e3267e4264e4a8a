from django.conf import settings
from django.utils import translation


class PreferredLanguageMiddleware:
    """Use a signed-in user's preferred language unless the browser chose one with the switcher."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        user = request.user
        if (
            user.is_authenticated
            and user.preferred_language
            and settings.LANGUAGE_COOKIE_NAME not in request.COOKIES
        ):
            translation.activate(user.preferred_language)
            request.LANGUAGE_CODE = user.preferred_language
        return self.get_response(request)
