"""Usernames and guest names (abstracta.people.names)."""

from __future__ import annotations

import re

import pytest

from abstracta.people.errors import InvalidName
from abstracta.people.names import check_name, guest_name, name_key


@pytest.mark.parametrize("name", ["an", "anna", "Anna_K", "x-1", "a" * 20, "0123", "__", "Guest12345"])
def test_valid_names(name):
    assert check_name(name) == name


@pytest.mark.parametrize("name", ["a", "a" * 21, "anna k", "ánna", "аnna", "anna!", "an\u200bna", "", None, 42,
                                  "Computer", "ADMIN", "deleted", "guest123456", "GUEST999999"])
def test_invalid_or_reserved_names(name):
    with pytest.raises(InvalidName):
        check_name(name)


def test_names_compare_without_case_and_spaces_are_trimmed():
    assert name_key("AnNa") == name_key("anna") == "anna"
    assert check_name("  anna ") == "anna"


def test_generated_guest_names_are_only_the_servers():
    names = {guest_name() for _ in range(200)}
    assert len(names) > 190
    for name in names:
        assert re.fullmatch(r"Guest[1-9][0-9]{5}", name)
        assert check_name(name, guest=True) == name
        with pytest.raises(InvalidName):
            check_name(name)
