"""HTTP views of the games app: the pages and the JSON API."""
from django.shortcuts import render


def home(request):
    return render(request, "home.html")
