"""The games app: the rules engine, the bots, the rooms and the websocket consumer; `ready` adds
Learn to play (the lesson mode) to the room service."""

from django.apps import AppConfig


class GamesConfig(AppConfig):
    name = "games"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # Imported here: the models and the room service are usable only once the apps are loaded.
        from games.models import Game
        from games.rooms.creation import register_mode
        from games.rooms.lesson_room import lesson_game

        register_mode(Game.LESSON, lesson_game)
