"""Accounts, guests, sessions and API tokens of the people domain (no HTTP)."""

from __future__ import annotations

import logging

import pytest
from sqlalchemy import select, text

from abstracta.people import errors
from abstracta.people.credentials import digest
from abstracta.people.tables import PersonRow, RecoveryCodeRow, SessionRow


def test_sign_up_stores_an_argon2id_hash_and_signs_in(people, engine):
    started = people.accounts.sign_up("Anna", "correct horse", ip="10.0.0.1", user_agent="test")
    assert started.principal.person.name == "Anna" and started.principal.person.is_account
    assert len(started.recovery_codes) == 8 and len(set(started.recovery_codes)) == 8
    with engine.connect() as c:
        stored = c.execute(text("SELECT password_hash FROM people WHERE name_key = 'anna'")).scalar()
        assert stored.startswith("$argon2id$v=19$") and "correct horse" not in stored
        # the session's secret and the recovery codes are kept only as SHA-256
        secrets_ = [r[0] for r in c.execute(text("SELECT secret_hash FROM people_sessions"))]
        assert secrets_ == [digest(started.secret)]
        codes = {r[0] for r in c.execute(text("SELECT code_hash FROM recovery_codes"))}
        assert codes == {digest(code) for code in started.recovery_codes}
    who = people.sessions.authenticate(secret=started.secret)
    assert who.person.name == "Anna" and who.session_id == started.principal.session_id
    again = people.accounts.sign_in("anna", "correct horse", ip="10.0.0.1")  # any case
    assert again.principal.person.id == started.principal.person.id and again.secret != started.secret


def test_names_are_unique_without_regard_to_case(people):
    people.accounts.sign_up("anna", "correct horse")
    with pytest.raises(errors.NameTaken):
        people.accounts.sign_up("ANNA", "another password")


@pytest.mark.parametrize("name, password, error", [
    ("a", "long enough", errors.InvalidName), ("anna!", "long enough", errors.InvalidName),
    ("anna", "short", errors.InvalidPassword), ("anna", "x" * 1025, errors.InvalidPassword),
    ("anna", None, errors.InvalidPassword), ("Computer", "long enough", errors.InvalidName),
])
def test_bad_names_and_passwords(people, name, password, error):
    with pytest.raises(error):
        people.accounts.sign_up(name, password)


def test_a_bad_name_and_a_bad_password_are_refused_together(people):
    with pytest.raises(errors.InvalidInput) as refused:
        people.accounts.sign_up("Alice Smith", "short")
    e = refused.value
    assert e.message == ("'Alice Smith' is not a valid name: 2–20 characters, each a letter A–Z (either case, no "
                         "accents), a digit, _ or -; a password has at least 8 characters")
    assert e.i18n == {"key": "people.error.fields", "params": {"problems": [
        {"key": "people.error.name_rule", "params": {}}, {"key": "people.error.password_short", "params": {"n": 8}}]}}
    # one field wrong: its own error, as before
    with pytest.raises(errors.InvalidPassword):
        people.accounts.sign_up("alice", "short")


def test_a_wrong_password_and_an_unknown_name_get_one_answer(people):
    people.accounts.sign_up("anna", "correct horse")
    with pytest.raises(errors.SignInFailed) as wrong:
        people.accounts.sign_in("anna", "wrong horse!")
    with pytest.raises(errors.SignInFailed) as unknown:
        people.accounts.sign_in("nobody-here", "wrong horse!")
    assert wrong.value.message == unknown.value.message and wrong.value.key == unknown.value.key


def test_the_unknown_name_costs_an_argon2_check_too(people, monkeypatch):
    checked = []
    original = people.passwords.hasher.verify
    monkeypatch.setattr(people.passwords.hasher, "verify", lambda p, h: checked.append(h) or original(p, h))
    with pytest.raises(errors.SignInFailed):
        people.accounts.sign_in("nobody-here", "whatever pw")
    assert len(checked) == 1 and checked[0].startswith("$argon2id$")


def test_ten_wrong_attempts_a_minute_then_refused_even_with_the_right_password(people, clock):
    people.accounts.sign_up("anna", "correct horse")
    for _ in range(10):
        with pytest.raises(errors.SignInFailed):
            people.accounts.sign_in("anna", "wrong horse!", ip=f"10.0.0.{_}")
    with pytest.raises(errors.TooManyAttempts) as refused:
        people.accounts.sign_in("Anna", "correct horse", ip="10.0.1.1")
    assert 1 <= refused.value.retry_after <= 60
    # another account is not held back
    people.accounts.sign_up("ben", "correct horse")
    people.accounts.sign_in("ben", "correct horse")


def test_the_limit_per_address_lets_a_club_sign_in(people):
    for i in range(30):
        people.accounts.sign_up(f"p{i}", "correct horse", ip=f"10.1.0.{i}")
    for i in range(30):
        people.accounts.sign_in(f"p{i}", "correct horse", ip="192.0.2.1")
    with pytest.raises(errors.TooManyAttempts):
        people.accounts.sign_in("p0", "correct horse", ip="192.0.2.1")


def test_sign_ups_per_address(people):
    for i in range(20):
        people.accounts.sign_up(f"s{i}", "correct horse", ip="192.0.2.2")
    with pytest.raises(errors.TooManyAttempts):
        people.accounts.sign_up("one-more", "correct horse", ip="192.0.2.2")
    # an invalid sign-up is not counted (and says what is wrong, not "too many")
    with pytest.raises(errors.InvalidPassword):
        people.accounts.sign_up("one-more", "short", ip="192.0.2.2")


def test_a_guest_gets_a_name_changes_it_and_keeps_its_row_when_signing_up(people, engine):
    guest = people.sessions.start_guest("10.0.0.1", "ua")
    assert guest.principal.person.kind == "guest" and guest.principal.person.name.startswith("Guest")
    renamed = people.sessions.rename_guest(guest.principal, "Kalle")
    assert renamed.name == "Kalle"
    other = people.sessions.start_guest("10.0.0.2")
    with pytest.raises(errors.NameTaken):
        people.sessions.rename_guest(other.principal, "kalle")
    with pytest.raises(errors.NameTaken):
        people.accounts.sign_up("KALLE", "correct horse")
    # the guest becomes the account: same person id (its seats stay), guest session ended
    people.standings.take_seat("m1", 0, guest.principal.person.id)
    account = people.accounts.sign_up("Kalle", "correct horse", guest=people.sessions.authenticate(secret=guest.secret))
    assert account.principal.person.id == guest.principal.person.id
    assert people.sessions.authenticate(secret=guest.secret) is None
    assert people.standings.seats_of(account.principal.person.id) == {"m1": {0}}
    with pytest.raises(errors.Conflict):
        people.sessions.rename_guest(account.principal, "other")


def test_an_idle_guest_gives_up_its_name(people, clock):
    guest = people.sessions.start_guest("10.0.0.1")
    people.sessions.rename_guest(guest.principal, "Kalle")
    clock.advance(days=31)
    people.accounts.sign_up("kalle", "correct horse")
    # the idle guest still exists, under a generated name
    who = people.sessions.authenticate(secret=guest.secret)
    assert who is not None and who.person.name.startswith("Guest")


def test_sessions_list_end_one_end_all(people, clock):
    first = people.accounts.sign_up("anna", "correct horse", user_agent="Firefox")
    second = people.accounts.sign_in("anna", "correct horse", user_agent="Chromium")
    third = people.accounts.sign_in("anna", "correct horse", user_agent="Phone")
    listed = people.sessions.sessions_of(second.principal)
    assert {s.user_agent for s in listed} == {"Firefox", "Chromium", "Phone"}
    assert [s.current for s in listed if s.user_agent == "Chromium"] == [True]
    people.sessions.end(second.principal, first.principal.session_id)
    assert people.sessions.authenticate(secret=first.secret) is None
    other = people.accounts.sign_up("ben", "correct horse")
    with pytest.raises(errors.UnknownPerson):  # not another person's session
        people.sessions.end(other.principal, third.principal.session_id)
    assert people.sessions.end_all(second.principal, keep_current=True) == 1
    assert people.sessions.authenticate(secret=third.secret) is None
    assert people.sessions.authenticate(secret=second.secret) is not None
    people.sessions.sign_out(second.principal)
    assert people.sessions.authenticate(secret=second.secret) is None


def test_a_session_unused_for_ninety_days_ends(people, clock):
    started = people.accounts.sign_up("anna", "correct horse")
    clock.advance(days=89)
    assert people.sessions.authenticate(secret=started.secret) is not None
    clock.advance(days=89)
    assert people.sessions.authenticate(secret=started.secret) is not None  # used on day 89: kept
    clock.advance(days=91)
    assert people.sessions.authenticate(secret=started.secret) is None


def test_api_tokens_scoped_listed_revoked(people, engine):
    anna = people.accounts.sign_up("anna", "correct horse")
    made = people.sessions.create_token(anna.principal, "my bot", ["play", "read"])
    assert made.token.startswith("abst_") and len(made.token) == 45 and made.info.scopes == ("play", "read")
    with engine.connect() as c:
        assert [r[0] for r in c.execute(text("SELECT token_hash FROM api_tokens"))] == [digest(made.token)]
    who = people.sessions.authenticate(token=made.token)
    assert who.person.name == "anna" and who.may("play") and not who.may("chat") and not who.by_session
    # a token manages nothing of the account
    with pytest.raises(errors.Forbidden):
        people.sessions.create_token(who, "another", ["read"])
    with pytest.raises(errors.InvalidInput):
        people.sessions.create_token(anna.principal, "bad", ["admin"])
    assert [t.description for t in people.sessions.tokens_of(anna.principal)] == ["my bot"]
    people.sessions.revoke_token(anna.principal, made.info.id)
    assert people.sessions.authenticate(token=made.token) is None
    guest = people.sessions.start_guest("10.0.0.3")
    with pytest.raises(errors.Forbidden):
        people.sessions.create_token(guest.principal, "guest bot", ["read"])


def test_recovery_code_signs_in_once_and_sets_a_new_password(people):
    anna = people.accounts.sign_up("anna", "correct horse")
    code = anna.recovery_codes[3]
    with pytest.raises(errors.SignInFailed):
        people.accounts.recover("anna", "abcd-efgh-jkmn-pqrs", "new password 1")
    back = people.accounts.recover("ANNA", code.upper().replace("-", " "), "new password 1")
    assert back.principal.person.name == "anna"
    assert people.sessions.authenticate(secret=anna.secret) is None  # every other session ended
    with pytest.raises(errors.SignInFailed):
        people.accounts.recover("anna", code, "new password 2")  # used up
    with pytest.raises(errors.SignInFailed):
        people.accounts.sign_in("anna", "correct horse")
    people.accounts.sign_in("anna", "new password 1")
    assert people.accounts.recovery_codes_left(back.principal) == 7
    fresh = people.accounts.new_recovery_codes(back.principal, "new password 1")
    assert len(fresh) == 8 and people.accounts.recovery_codes_left(back.principal) == 8
    with pytest.raises(errors.SignInFailed):
        people.accounts.recover("anna", anna.recovery_codes[0], "new password 3")  # the old ones went


def test_change_password_ends_the_other_sessions(people):
    anna = people.accounts.sign_up("anna", "correct horse")
    other = people.accounts.sign_in("anna", "correct horse")
    made = people.sessions.create_token(anna.principal, "my bot", ["read"])
    with pytest.raises(errors.SignInFailed):
        people.accounts.change_password(anna.principal, "wrong horse!", "battery staple")
    people.accounts.change_password(anna.principal, "correct horse", "battery staple")
    assert people.sessions.authenticate(secret=other.secret) is None
    assert people.sessions.authenticate(secret=anna.secret) is not None
    people.accounts.sign_in("anna", "battery staple")
    # API tokens outlive a new password, as docs/accounts.md says (a script keeps running); an
    # administrator's disable stops them
    assert people.sessions.authenticate(token=made.token).person.name == "anna"
    people.accounts.reset_password("anna")
    assert people.sessions.authenticate(token=made.token).person.name == "anna"
    people.accounts.set_disabled("anna", True)
    assert people.sessions.authenticate(token=made.token) is None


def test_deletion_keeps_the_games_under_deleted_player_and_drops_the_rest(people, engine):
    from abstracta import load_game

    anna = people.accounts.sign_up("anna", "correct horse")
    ben = people.accounts.sign_up("ben", "correct horse")
    people.sessions.create_token(anna.principal, "bot", ["read"])
    game = load_game("fanorona", size="dimy")
    people.standings.take_seat("m1", 0, anna.principal.person.id)
    people.standings.take_seat("m1", 1, ben.principal.person.id)
    people.standings.record_game("m1", game, None, [1, -1], {0: anna.principal.person.id, 1: ben.principal.person.id},
                                 rated=True)
    with pytest.raises(errors.SignInFailed):
        people.accounts.delete(anna.principal, "wrong horse!")
    people.accounts.delete(anna.principal, "correct horse")
    assert people.sessions.authenticate(secret=anna.secret) is None
    assert people.standings.people_of("m1") == {0: {"name": None, "kind": "deleted"}, 1: {"name": "ben", "kind": "account"}}
    with pytest.raises(errors.UnknownPerson):
        people.standings.profile("anna")
    assert people.standings.profile("ben")["results"]["fanorona"]["losses"] == 1
    with engine.connect() as c:
        for table in ("people_sessions", "api_tokens", "recovery_codes", "ratings", "rating_history"):
            assert c.execute(text(f"SELECT count(*) FROM {table} WHERE person_id = {anna.principal.person.id}")).scalar() == 0
        assert c.execute(text("SELECT count(*) FROM game_results WHERE match_id = 'm1'")).scalar() == 2
    # the name is free again, for a new person (a new id: the old games stay the deleted player's)
    again = people.accounts.sign_up("anna", "correct horse")
    assert again.principal.person.id != anna.principal.person.id


def test_export_holds_everything_and_no_secret(people):
    anna = people.accounts.sign_up("anna", "correct horse", user_agent="Firefox")
    token = people.sessions.create_token(anna.principal, "bot", ["read"])
    data = people.accounts.export(anna.principal)
    assert data["person"]["name"] == "anna" and data["recovery_codes_left"] == 8
    assert data["sessions"][0]["user_agent"] == "Firefox" and data["api_tokens"][0]["description"] == "bot"
    flat = repr(data)
    for secret in (anna.secret, token.token, *anna.recovery_codes, "argon2", "correct horse"):
        assert secret not in flat


def test_admin_add_disable_enable_reset(people):
    person, codes = people.accounts.add("club-admin", "correct horse")
    assert person.name == "club-admin" and len(codes) == 8
    anna = people.accounts.sign_up("anna", "correct horse")
    token = people.sessions.create_token(anna.principal, "bot", ["read"])
    people.accounts.set_disabled("ANNA", True)
    assert people.sessions.authenticate(secret=anna.secret) is None
    assert people.sessions.authenticate(token=token.token) is None
    with pytest.raises(errors.AccountDisabled):
        people.accounts.sign_in("anna", "correct horse")
    listed = {a.name: a for a in people.accounts.list()}
    assert listed["anna"].disabled and not listed["club-admin"].disabled
    people.accounts.set_disabled("anna", False)
    fresh = people.accounts.reset_password("anna")
    with pytest.raises(errors.SignInFailed):
        people.accounts.sign_in("anna", "correct horse")
    people.accounts.sign_in("anna", fresh)
    with pytest.raises(errors.UnknownPerson):
        people.accounts.set_disabled("nobody", True)


def test_nothing_secret_reaches_the_log(people, caplog):
    caplog.set_level(logging.DEBUG)
    anna = people.accounts.sign_up("anna", "correct horse")
    with pytest.raises(errors.SignInFailed):
        people.accounts.sign_in("anna", "wrong horse!")
    people.accounts.sign_in("anna", "correct horse")
    for secret in ("correct horse", "wrong horse!", anna.secret, "argon2"):
        assert secret not in caplog.text


def test_a_database_of_today_opens_and_gets_the_new_tables(tmp_path):
    """A database written before people existed (the match store's tables only) opens as it was."""
    from sqlalchemy import create_engine, inspect

    from abstracta.people import People
    from abstracta.people.credentials import Passwords
    from abstracta.server.storage import Store

    url = f"sqlite:///{tmp_path / 'old.db'}"
    store = Store(url)
    before = {t: [c["name"] for c in inspect(store.engine).get_columns(t)] for t in inspect(store.engine).get_table_names()}
    store.dispose()
    engine = create_engine(url)
    People(engine, passwords=Passwords.light())
    after = inspect(engine)
    assert {t: [c["name"] for c in after.get_columns(t)] for t in before} == before
    assert {"people", "people_sessions", "api_tokens", "recovery_codes", "ratings", "rating_history",
            "game_results", "seat_people", "level_results"} <= set(after.get_table_names())
    engine.dispose()
    Store(url).dispose()  # and the match store still opens it


def test_the_domain_imports_nothing_of_the_server_or_http():
    import subprocess
    import sys

    code = ("import sys, abstracta.people, abstracta.people.standings, abstracta.people.levels; "
            "bad = [m for m in sys.modules if m.startswith(('abstracta.server', 'fastapi', 'starlette'))]; "
            "print(bad); sys.exit(1 if bad else 0)")
    assert subprocess.run([sys.executable, "-c", code]).returncode == 0


def test_the_person_rows_are_rows_of_people(people, engine):
    people.accounts.sign_up("anna", "correct horse")
    people.sessions.start_guest("10.0.0.9")
    with people.db.reading() as s:
        kinds = sorted(r.kind for r in s.scalars(select(PersonRow)))
        assert kinds == ["account", "guest"]
        assert s.scalar(select(RecoveryCodeRow.used_at)) is None
        assert len(s.scalars(select(SessionRow)).all()) == 2


def test_every_refusal_of_the_domain_has_words_in_english_and_finnish():
    import json
    import re
    from pathlib import Path

    import abstracta.people as package
    import abstracta.server.api.people as edge
    from abstracta.server.api.routes import accounts, players

    web = Path(package.__file__).resolve().parent.parent / "web" / "i18n"
    en = json.loads((web / "en.json").read_text("utf-8"))
    fi = json.loads((web / "fi.json").read_text("utf-8"))
    sources = list(Path(package.__file__).resolve().parent.glob("*.py")) + [
        Path(module.__file__) for module in (edge, accounts, players)]
    keys = set()
    for src in sources:
        keys |= set(re.findall(r"""\bkey=["']([a-z0-9_.\-]+)["']""", src.read_text("utf-8")))
    assert len(keys) > 20
    assert not sorted(k for k in keys if k not in en or k not in fi)


def test_a_hash_of_older_parameters_is_made_again_at_sign_in(people, engine):
    from pwdlib import PasswordHash
    from pwdlib.hashers.argon2 import Argon2Hasher

    from abstracta.people.credentials import Passwords

    people.passwords = Passwords(PasswordHash((Argon2Hasher(time_cost=2, memory_cost=8192, parallelism=1),)))
    people.accounts.sign_up("anna", "correct horse")
    people.passwords = Passwords.light()
    people.accounts.sign_in("anna", "correct horse")
    with engine.connect() as c:
        stored = c.execute(text("SELECT password_hash FROM people WHERE name_key = 'anna'")).scalar()
    assert stored.startswith("$argon2id$v=19$m=8192,t=1,p=1$")
    people.accounts.sign_in("anna", "correct horse")


def test_a_wrong_and_an_unknown_name_take_about_the_same_time(engine, clock):
    """With the server's own Argon2id parameters: the unknown name costs one hash check too —
    one Argon2id verification of a hash with the same parameters as a real account's, which is
    what makes the two answers take the same time (counted, not timed: a timing on a shared
    machine measures the machine)."""
    from pwdlib.hashers.argon2 import Argon2Hasher

    from abstracta.people import People

    people = People(engine, now=clock)
    people.accounts.sign_up("anna", "correct horse")
    checked: list[str] = []
    real_verify = Argon2Hasher.verify

    def verify(self, password, hash):
        checked.append(hash.split("$")[3])  # the hash's parameters: m=…,t=…,p=…
        return real_verify(self, password, hash)

    original = Argon2Hasher.verify
    Argon2Hasher.verify = verify
    try:
        for name in ("anna", "nobody-here"):
            with pytest.raises(errors.SignInFailed):
                people.accounts.sign_in(name, "wrong horse!")
    finally:
        Argon2Hasher.verify = original
    assert len(checked) == 2 and checked[0] == checked[1], checked
