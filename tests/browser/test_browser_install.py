"""Installable (issue 29): the site has a web app manifest with icons, so a phone can add it to
its home screen, opening full screen at the home page. Chromium itself is asked whether the page
is installable (the DevTools protocol's Page.getInstallabilityErrors)."""

import struct

import pytest

from .conftest import PHONE

pytestmark = pytest.mark.browser


def png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    width, height = struct.unpack(">II", data[16:24])
    return width, height


def test_the_site_is_installable_with_its_manifest_and_icons(site, make_page):
    page = make_page(PHONE, is_mobile=True, has_touch=True)
    page.goto(site.url + "/")
    href = page.locator('link[rel="manifest"]').get_attribute("href")
    answer = page.request.get(site.url + href)
    assert answer.status == 200 and answer.headers["content-type"].startswith("application/manifest+json")
    manifest = answer.json()
    assert manifest["start_url"] == "/" and manifest["display"] == "fullscreen" and manifest["name"] == "Foot Canasta"
    sizes = set()
    for icon in manifest["icons"]:
        image = page.request.get(site.url + icon["src"])
        assert image.status == 200 and image.headers["content-type"] == "image/png"
        width, height = png_size(image.body())
        assert f"{width}x{height}" == icon["sizes"]
        sizes.add(icon["sizes"])
    assert {"192x192", "512x512"} <= sizes
    devtools = page.context.new_cdp_session(page)
    parsed = devtools.send("Page.getAppManifest")
    assert parsed.get("errors") == [], parsed.get("errors")
    errors = devtools.send("Page.getInstallabilityErrors")["installabilityErrors"]
    # A test's browser context is off the record, which alone keeps Chromium from offering to install.
    assert [error["errorId"] for error in errors if error["errorId"] != "in-incognito"] == []
    assert page.foot_errors == []
