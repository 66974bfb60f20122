"""The JSON API of the games app (sessions, creating and joining games)."""
urlpatterns: list = []
