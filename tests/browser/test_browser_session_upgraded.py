"""A guest who makes an account in another tab stays the same person, signed in with a new
session cookie (people/accounts.py: the guest row becomes the account, its sessions end). The
sockets of the first tab were opened with the guest's cookie: the server closes them with 4401
(and wakes them to do so at once, 8ddb577). The page must not then tell a person who is signed
in that their session ended and stop its live updates for good (e696bab): the browser holds a
valid cookie for the same person, and a socket opened again works."""

from __future__ import annotations

import uuid

from test_browser_lobby import closing, person


def test_a_guest_making_an_account_in_another_tab_is_not_told_their_session_ended(browser, live_server):
    url = live_server.url
    ca, a = person(browser, url)  # a guest on the lobby, its socket open
    with closing(ca):
        opened = []
        a.on("websocket", lambda ws: opened.append(ws.url))
        me = a.evaluate("fetch('/api/me').then((r) => r.json())")
        # the other tab of the same browser makes an account of the guest (the same cookie jar)
        name = f"upg{uuid.uuid4().hex[:8]}"
        made = ca.request.post(f"{url}/api/accounts", data={"username": name, "password": "correct horse"},
                               headers={"Origin": url})
        assert made.status == 201, made.text()
        now = a.evaluate("fetch('/api/me').then((r) => r.json())")
        assert me["kind"] == "guest" and now["kind"] == "account" and now["name"] == name  # signed in (the guest made the account)
        a.wait_for_timeout(4500)  # the guest cookie's socket was closed at once (woken): 4401
        banner = a.locator("#session-ended").count()
        lobby_live = a.evaluate("document.getElementById('app').dataset.lobby")
        assert banner == 0, "a person signed in (the same one) is told their session ended"
        assert lobby_live == "socket", f"the lobby's live updates are not reopened ({lobby_live}; {opened})"
