"""The forms for pairs, captains' accounts, judges and directors (the first-run director's too), and the judge
offered by name on every form that picks one: each checks what was typed and hands the service plain values."""

from __future__ import annotations

from typing import TYPE_CHECKING

from django import forms
from django.contrib.auth import get_user_model
from django.contrib.auth.forms import UserCreationForm
from django.contrib.auth.validators import UnicodeUsernameValidator
from django.utils.translation import gettext_lazy as _

from tournaments.competition import access
from tournaments.competition.accounts import display_name
from tournaments.models import Pair, Tournament
from tournaments.people.accounts import account_named, captain_problem
from tournaments.people.pairs import PairEntry

if TYPE_CHECKING:
    from django_stubs_ext import StrOrPromise

NAME_LENGTH = Pair._meta.get_field("name").max_length
SEED_MAX = 32767  # a PositiveSmallIntegerField


class JudgeChoiceField(forms.ModelChoiceField):
    """Judges offered by their display name (else their user name)."""

    def label_from_instance(self, obj) -> str:
        return display_name(obj)


class DirectorSetupForm(UserCreationForm):
    """The first-run form: the very first account is the tournament director's."""

    class Meta(UserCreationForm.Meta):
        model = get_user_model()
        fields = ("username",)
        labels = {"username": _("user name")}


class PairForm(forms.Form):
    """Add or edit one pair: its name, both players, club and seed."""

    name = forms.CharField(label=_("pair name"), max_length=NAME_LENGTH)
    player1 = forms.CharField(label=_("player 1"), max_length=NAME_LENGTH)
    player2 = forms.CharField(label=_("player 2"), max_length=NAME_LENGTH)
    club = forms.CharField(label=_("club"), max_length=NAME_LENGTH, required=False)
    seed = forms.IntegerField(
        label=_("seed"),
        min_value=1,
        max_value=SEED_MAX,
        required=False,
        help_text=_("leave empty for an unseeded pair"),
    )

    def __init__(self, *args, tournament: Tournament, pair: Pair | None = None, **kwargs):
        if pair is not None and "initial" not in kwargs:
            kwargs["initial"] = {
                "name": pair.name,
                "player1": pair.player1.name,
                "player2": pair.player2.name,
                "club": pair.club,
                "seed": pair.seed,
            }
        super().__init__(*args, **kwargs)
        self.others = tournament.pairs.exclude(pk=pair.pk) if pair else tournament.pairs.all()

    def clean_name(self) -> str:
        name = self.cleaned_data["name"]
        if self.others.filter(name=name).exists():
            raise forms.ValidationError(_("Another pair of this tournament has this name."))
        return name

    def clean_seed(self) -> int | None:
        seed = self.cleaned_data["seed"]
        if seed is not None and self.others.filter(seed=seed).exists():
            raise forms.ValidationError(_("Another pair has this seed."))
        return seed

    def clean_player2(self) -> str:
        player2 = self.cleaned_data["player2"]
        if player2 == self.cleaned_data.get("player1"):
            raise forms.ValidationError(_("The two players must be different."))
        return player2

    def entry(self) -> PairEntry:
        return PairEntry(**self.cleaned_data)


def username_field(help_text: StrOrPromise) -> forms.CharField:
    """A user name to log in with, as Django's accounts take it."""
    return forms.CharField(
        label=_("user name"), max_length=150, validators=[UnicodeUsernameValidator()], help_text=help_text
    )


def display_name_field() -> forms.CharField:
    return forms.CharField(label=_("display name"), max_length=150, required=False)


class JudgeForm(forms.Form):
    """A new judge's account: a user name to log in with and the name the desk shows."""

    title = _("Create a judge account")

    username = username_field(_("letters, digits and @ . + - _ only; the judge logs in with it"))
    name = display_name_field()

    def clean_username(self) -> str:
        username = self.cleaned_data["username"]
        if account_named(username) is not None:
            raise forms.ValidationError(_("This user name is taken."))
        return username


class DirectorForm(JudgeForm):
    """Another director's account: the same two fields as a judge's."""

    title = _("Create a director account")

    username = username_field(_("letters, digits and @ . + - _ only; the director logs in with it"))


class CaptainForm(forms.Form):
    """The account a pair's captain (its first player) logs in with to confirm the pair's deals: a new user name
    makes one; a captain's existing account (another tournament's) is linked by its user name."""

    username = username_field(
        _(
            "letters, digits and @ . + - _ only; a new user name creates the account, the user name of a "
            "captain's existing account links it"
        )
    )
    name = display_name_field()

    def __init__(self, *args, pair: Pair, **kwargs):
        kwargs.setdefault("initial", {"name": pair.player1.name})
        super().__init__(*args, **kwargs)
        self.pair = pair

    def clean_username(self) -> str:
        username = self.cleaned_data["username"]
        account = account_named(username)
        if account is not None and (problem := captain_problem(self.pair, account)):
            raise forms.ValidationError(problem)
        return username


class TableJudgeForm(forms.Form):
    """The judge at one table (or none)."""

    judge = JudgeChoiceField(
        queryset=get_user_model().objects.none(), required=False, label=_("judge"), empty_label=_("no judge")
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["judge"].queryset = access.judge_accounts()
