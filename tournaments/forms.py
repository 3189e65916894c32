from django.contrib.auth import get_user_model
from django.contrib.auth.forms import UserCreationForm
from django.utils.translation import gettext_lazy as _


class DirectorSetupForm(UserCreationForm):
    """The first-run form: the very first account is the tournament director's."""

    class Meta(UserCreationForm.Meta):
        model = get_user_model()
        fields = ("username",)
        labels = {"username": _("user name")}
