"""Django's admin app, with the site's own AdminSite (server.admin: the throttled login).

A module of its own because INSTALLED_APPS imports it before the models are ready; the site
class is imported only when the admin app is ready.
"""

from django.contrib.admin.apps import AdminConfig


class FootAdminConfig(AdminConfig):
    default_site = "server.admin.FootAdminSite"
