"""The HTML pages of the site (home, table, join, rules); the page logic lives in static/foot/."""
from django.shortcuts import render
from django.urls import path


def home(request):
    return render(request, "home.html")


urlpatterns = [
    path("", home, name="home"),
]
