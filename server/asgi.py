"""ASGI entry point: the front (service routes, counts, request ids, graceful restart: server.front),
then HTTP through Django and websockets through Channels (exact origin check, sessions)."""

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "server.settings")
django_asgi_app = get_asgi_application()

from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402  (needs Django set up first)
from channels.sessions import SessionMiddlewareStack  # noqa: E402
from django.conf import settings  # noqa: E402

from server.front import Front  # noqa: E402
from server.origins import ExactOriginValidator  # noqa: E402
from server.routing import websocket_urlpatterns  # noqa: E402

front = Front(
    ProtocolTypeRouter(  # type: ignore[arg-type]  # asgiref's precise scope types, the front's plain mappings
        {
            "http": django_asgi_app,
            # types-channels' precise ASGI types; the origin check's are plain mappings, as the front's
            "websocket": ExactOriginValidator(SessionMiddlewareStack(URLRouter(websocket_urlpatterns))),  # type: ignore[arg-type]
        }
    ),
    access_log=settings.LOG_FORMAT == "json",  # the front writes the access log (server.logs)
)
application = front
