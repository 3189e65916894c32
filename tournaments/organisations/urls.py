from django.urls import path

from tournaments.organisations import views

urlpatterns = [
    path("o/<slug:slug>/", views.organisation_page, name="organisation"),
    path("o/<slug:slug>/members/", views.members_page, name="organisation-members"),
    path("o/<slug:slug>/members/invite/", views.invite, name="organisation-invite"),
    path(
        "o/<slug:slug>/members/invitations/<int:invitation_id>/revoke/",
        views.revoke,
        name="organisation-revoke",
    ),
    path("o/<slug:slug>/members/<int:membership_id>/", views.change_member, name="organisation-member"),
    path("organisations/new/", views.new_organisation, name="organisation-new"),
    path("invite/<slug:token>/", views.invitation_page, name="invitation"),
]
