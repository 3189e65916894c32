"""What every admin page reads from an address or a form is checked as the site's own pages check theirs, so no
address or field gives a 500: a history address naming no id is not found, an empty ``_to_field`` names no field,
a list filter the database cannot read is dropped and so is a row ticked for an action that can be no row (on
every admin page, auth's and axes' too), an autocomplete field's typed value is a form error, so is an id past 64
bits in a many-to-many field, and so is JSON that ``json`` cannot read at all. Also: pages only read."""

from typing import TYPE_CHECKING, Any

from django import forms
from django.contrib import admin
from django.contrib.admin import helpers
from django.contrib.admin.options import IncorrectLookupParameters
from django.contrib.admin.utils import unquote
from django.contrib.admin.widgets import AutocompleteSelect
from django.core.exceptions import (
    ImproperlyConfigured,
    PermissionDenied,
    SuspiciousOperation,
    ValidationError,
)
from django.db import InterfaceError, OperationalError, models, router, transaction
from django.db.models.constants import LOOKUP_SEP
from django.forms.fields import InvalidJSONInput
from django.http import Http404
from simple_history.admin import SimpleHistoryAdmin

from tournaments.competition.ids import IdChoicesField, can_be_id

if TYPE_CHECKING:  # the mixins below go before ModelAdmin: their ``super()`` is its, for the type checker too
    AdminMixin = admin.ModelAdmin[Any]
else:
    AdminMixin = object


class ReadOnly:
    """Shown, never added, changed or deleted here (a POST is refused with 403)."""

    def has_add_permission(self, request, obj=None) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False

    def has_delete_permission(self, request, obj=None) -> bool:
        return False


def key_or_404(model, text: str):
    """``text`` from an address as the model's primary key, else not found (simple-history's pages look the
    address up as it is: a ValueError for anything but digits)."""
    try:
        return model._meta.pk.to_python(unquote(text))
    except ValidationError:
        raise Http404 from None


class HistoryForReading(SimpleHistoryAdmin):
    """The change history without its revert button (a revert saves an old version, verdict and levels included)."""

    def has_change_history_permission(self, request, obj=None) -> bool:
        return False

    def history_view(self, request, object_id, extra_context=None):
        key_or_404(self.model, object_id)
        return super().history_view(request, object_id, extra_context)

    def history_form_view(self, request, object_id, version_id, extra_context=None):
        if request.method == "POST":
            raise PermissionDenied
        key_or_404(self.model, object_id)
        key_or_404(self.model.history.model, version_id)
        return super().history_form_view(request, object_id, version_id, extra_context)


def can_be(field: models.Field, value) -> bool:
    """Whether ``value`` can be a value of ``field`` at all (``abc`` is no id, nor is a number past 64 bits)."""
    try:
        field.to_python(value)
    except ValidationError:
        return False
    return not isinstance(field, models.IntegerField) or can_be_id(value)


class ReadableAutocompleteSelect(AutocompleteSelect):
    """Django's autocomplete, which shows a form again by looking its posted choice up as it is: a ValueError for a
    typed value that is no id. Here such a value is left out; the field's own error says why."""

    def optgroups(self, name, value, attr=None):
        target = self.field.target_field
        return super().optgroups(name, [v for v in value if can_be(target, v)], attr)


class ReadableAutocomplete:
    """Autocomplete fields with ``ReadableAutocompleteSelect``."""

    def formfield_for_foreignkey(self, db_field, request, **kwargs):
        if db_field.name in self.get_autocomplete_fields(request):
            widget = ReadableAutocompleteSelect(db_field, self.admin_site, using=kwargs.get("using"))
            kwargs.setdefault("widget", widget)
        return super().formfield_for_foreignkey(db_field, request, **kwargs)


class ReadableJSONField(forms.JSONField):
    """Django's JSON field, refusing JSON that ``json`` cannot read at all (a number of 5,000 digits: a ValueError;
    nesting 100,000 deep: a RecursionError) as it refuses a typo, instead of failing with it."""

    def to_python(self, value):
        try:
            return super().to_python(value)
        except (ValueError, RecursionError):
            raise ValidationError(
                self.error_messages["invalid"], code="invalid", params={"value": value}
            ) from None

    def bound_data(self, data, initial):
        try:
            return super().bound_data(data, initial)
        except (ValueError, RecursionError):
            return InvalidJSONInput(data)


class NoEmptyToField:
    """An empty ``_to_field`` in the address names no field: the object is found by its id, as without it (Django
    looks up a field named '': a FieldDoesNotExist, a 500)."""

    def get_object(self, request, object_id, from_field=None):
        return super().get_object(request, object_id, from_field or None)


class ReadableFilters(AdminMixin):
    """A list page whose address the database cannot read is Django's answer to a filter it cannot read: the
    list without its filters (``?e=1``), not a 500.

    Django checks a filter's value when it builds the query, but some fail only when the database runs it: an
    address field given ``abc`` (PostgreSQL's ``inet``), ``__range=abc`` (three values for two places), a year
    past 9999 in the date hierarchy, a lookup the database lacks (``__contains`` on JSON in SQLite): whatever
    fails while the list is read from an address that asks for something, as Django's own list page treats
    what fails while it builds the query (a database that is down is no fault of the address). The list's
    count and its page are read here, in a savepoint (PostgreSQL refuses anything more in a transaction that
    failed), so such a failure is caught before the page is drawn. A NUL never gets here: the whole site refuses
    it (``referee.middleware.RequestCheckMiddleware``).
    """

    def lookup_allowed(self, lookup, value, request) -> bool:
        """No regular expression from an address: SQLite's fails in the driver on a bad one, and a catastrophic
        one (``(a+)+$``) pins a worker on either database. Django answers a refused lookup with a 400."""
        if any(part in REGEX_LOOKUPS for part in lookup.split(LOOKUP_SEP)):
            return False
        return super().lookup_allowed(lookup, value, request)

    def get_changelist_instance(self, request):
        try:
            with transaction.atomic(using=router.db_for_read(self.model)):
                changelist = super().get_changelist_instance(request)
                len(changelist.result_list)  # the page's rows, read now and kept for the template
        except (
            IncorrectLookupParameters,
            SuspiciousOperation,
            ImproperlyConfigured,
            OperationalError,
            InterfaceError,
        ):
            raise  # Django's own answers, and a database that is down: no fault of the address
        except Exception as unreadable:  # as Django's list page treats a filter it cannot build
            if not request.GET:  # the address asked nothing: the fault is the site's, shown as one
                raise
            raise IncorrectLookupParameters(unreadable) from unreadable
        return changelist


class ReadableSelection:
    """The rows ticked for an action are looked up as they are sent: a value that can be no row's key (``abc``, a
    number of 5,000 digits) was a ValueError, a 500. Such a value is left out, as if unticked; with none left,
    Django says that no rows were chosen."""

    def changelist_view(self, request, extra_context=None):
        ticked = request.POST.getlist(helpers.ACTION_CHECKBOX_NAME)
        readable = [value for value in ticked if can_be(self.model._meta.pk, value)]
        if readable != ticked:
            request.POST = request.POST.copy()
            request.POST.setlist(helpers.ACTION_CHECKBOX_NAME, readable)
        return super().changelist_view(request, extra_context)


class ReadableManyToMany:
    """A many-to-many field's posted ids are checked before the database is asked about them all at once: one
    past 64 bits is a form error (``IdChoicesField``), not an OverflowError in SQLite's driver."""

    def formfield_for_manytomany(self, db_field, request, **kwargs):
        kwargs.setdefault("form_class", IdChoicesField)
        return super().formfield_for_manytomany(db_field, request, **kwargs)


EVERY_ADMIN = (NoEmptyToField, ReadableFilters, ReadableSelection, ReadableManyToMany)
REGEX_LOOKUPS = {"regex", "iregex"}


def check_every_admin(site: admin.AdminSite) -> None:
    """Every model's admin page with ``EVERY_ADMIN``'s checks: this app's, and auth's and axes' (their admin
    modules are imported before this one, as their apps come first in ``INSTALLED_APPS``)."""
    from django.apps import apps

    for model in apps.get_models():
        if site.is_registered(model) and not isinstance(site.get_model_admin(model), EVERY_ADMIN):
            current = type(site.get_model_admin(model))
            site.unregister(model)
            site.register(model, type(current.__name__, (*EVERY_ADMIN, current), {}))
