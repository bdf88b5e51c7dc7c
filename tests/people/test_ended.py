"""The people service says whose credentials ended (``Database.on_ended``), once the change is
committed: the web app's sockets trust a reading of their credential until they hear of an end
(server/signed_in.py), so every way a session or API token stops working must be heard."""

from __future__ import annotations

import pytest

from abstracta.people import errors


@pytest.fixture
def heard(people):
    got: list[int] = []
    people.db.on_ended.append(got.append)
    return got


def valid(people, started) -> bool:
    return people.sessions.authenticate(secret=started.secret) is not None


def test_every_way_a_session_ends_is_heard_with_its_person(people, heard, clock):
    anna = people.accounts.sign_up("anna", "correct horse")
    a2 = people.accounts.sign_in("anna", "correct horse")
    a3 = people.accounts.sign_in("anna", "correct horse")
    ben = people.accounts.sign_up("ben", "correct horse")
    me = anna.principal.person.id
    assert heard == []  # signing up and in ends nothing

    people.sessions.end(anna.principal, a2.principal.session_id)
    assert not valid(people, a2) and heard == [me]
    assert people.sessions.end_all(anna.principal, keep_current=True) == 1
    assert not valid(people, a3) and heard == [me, me]
    people.sessions.sign_out(anna.principal)
    assert not valid(people, anna) and heard == [me] * 3
    assert valid(people, ben)  # nobody else's

    # a new password ends the other sessions; a sign-in that ends the others, too
    b2 = people.accounts.sign_in("ben", "correct horse")
    people.accounts.change_password(ben.principal, "correct horse", "battery staple")
    assert not valid(people, b2) and heard[-1] == ben.principal.person.id
    del heard[:]

    # the administrator's: disable, reset a password; the person's own deletion
    c = people.accounts.sign_up("cecilia", "correct horse")
    token = people.sessions.create_token(c.principal, "bot", ["read"])
    people.accounts.set_disabled("cecilia", True)
    assert people.sessions.authenticate(token=token.token) is None and heard == [c.principal.person.id]
    people.accounts.set_disabled("cecilia", False)  # enabling ends nothing
    assert heard == [c.principal.person.id]
    d = people.accounts.sign_up("dora", "correct horse")
    people.accounts.reset_password("dora")
    assert not valid(people, d) and heard[-1] == d.principal.person.id
    e = people.accounts.sign_up("eino", "correct horse")
    e2 = people.accounts.sign_in("eino", "correct horse")
    people.accounts.delete(e2.principal, "correct horse")
    assert not valid(people, e) and heard[-1] == e.principal.person.id


def test_a_revoked_token_a_guest_signing_up_and_an_idle_session_are_heard(people, heard, clock):
    anna = people.accounts.sign_up("anna", "correct horse")
    made = people.sessions.create_token(anna.principal, "bot", ["read"])
    people.sessions.revoke_token(anna.principal, made.info.id)
    assert people.sessions.authenticate(token=made.token) is None and heard == [anna.principal.person.id]
    guest = people.sessions.start_guest("10.0.0.1")
    people.accounts.sign_up("kalle", "correct horse", guest=people.sessions.authenticate(secret=guest.secret))
    assert not valid(people, guest) and heard[-1] == guest.principal.person.id
    ben = people.accounts.sign_up("ben", "correct horse")
    clock.advance(days=91)
    assert not valid(people, ben) and heard[-1] == ben.principal.person.id


def test_a_refused_change_is_not_heard(people, heard):
    anna = people.accounts.sign_up("anna", "correct horse")
    ben = people.accounts.sign_up("ben", "correct horse")
    with pytest.raises(errors.UnknownPerson):  # another's session: rolled back
        people.sessions.end(ben.principal, anna.principal.session_id)
    with pytest.raises(errors.UnknownPerson):
        people.sessions.revoke_token(anna.principal, "no-such-token")
    with pytest.raises(errors.SignInFailed):
        people.accounts.change_password(anna.principal, "wrong horse!", "battery staple")
    assert heard == [] and valid(people, anna)


def test_a_listener_that_fails_does_not_undo_the_sign_out(people, heard, caplog):
    def broken(_person_id: int) -> None:
        raise RuntimeError("listener bug")

    people.db.on_ended.insert(0, broken)
    anna = people.accounts.sign_up("anna", "correct horse")
    people.sessions.sign_out(anna.principal)
    assert not valid(people, anna) and heard == [anna.principal.person.id]
    assert "listener of ended sessions failed" in caplog.text


def test_a_recovery_and_a_sign_in_over_another_session_are_heard(people, heard):
    anna = people.accounts.sign_up("anna", "correct horse")
    back = people.accounts.recover("anna", anna.recovery_codes[0], "new password 1")
    assert not valid(people, anna) and heard == [anna.principal.person.id]  # every other session
    # a browser signed in as a guest signs in as anna: the guest's session ends there
    guest = people.sessions.start_guest("10.0.0.1")
    people.accounts.sign_in("anna", "new password 1", replacing=guest.principal)
    assert not valid(people, guest) and heard[-1] == guest.principal.person.id
    assert valid(people, back)
