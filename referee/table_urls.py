"""The table side: the judges' pages."""

from django.urls import path

from referee import views

urlpatterns = [
    path("match/<int:match_id>/", views.match_page, name="match"),
]
