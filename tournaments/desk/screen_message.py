"""The director's message on the projector screen: a small desk form, saved with the tournament's history.

The message changes no result, so it may still change once the tournament is finished (as its name and public
switches may): the prize-giving is announced after the last round.
"""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_http_methods

from tournaments.competition.page_guards import desk_page
from tournaments.models import Tournament


class ScreenMessageForm(forms.ModelForm):
    class Meta:
        model = Tournament
        fields = ["screen_message"]
        widgets = {"screen_message": forms.Textarea(attrs={"rows": 2, "maxlength": 300})}
        help_texts = {
            "screen_message": gettext_lazy("Shown under the screen's panels; leave empty for none.")
        }


def set_screen_message(tournament: Tournament, text: str) -> None:
    """Save the message alone (the history keeps who wrote it and when: the request's user)."""
    tournament.screen_message = text.strip()
    tournament.save(update_fields=["screen_message"])


@desk_page
@require_http_methods(["GET", "POST"])
def desk_screen_message(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    form = ScreenMessageForm(request.POST or None, instance=tournament)
    if request.method == "POST" and form.is_valid():
        set_screen_message(tournament, form.cleaned_data["screen_message"])
        messages.success(request, _("The message on the screen is saved."))
        return redirect("desk-screen-message", tournament.slug)
    return render(request, "tournaments/desk/screen_message.html", {"tournament": tournament, "form": form})
