"""Websocket routes (the consumers live in the apps)."""
websocket_urlpatterns: list = []
