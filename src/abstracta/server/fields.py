"""Field types shared by the request bodies of every router (the app's, the lobby's)."""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import BeforeValidator, StrictInt


def integral(value: Any) -> Any:
    """A JSON number without a fraction (``13.0``) as the integer it is; anything else as it
    came, for the strict check after it (``"13"``, ``true`` and ``13.5`` stay refused). JSON
    Schema's ``integer``, which /openapi.json declares for these fields, counts ``13.0`` among
    the integers (a client following the schema, schemathesis among them, may send it), and the
    schema cannot declare a stricter rule: the two are one number in JSON's data model."""
    return int(value) if isinstance(value, float) and value.is_integer() else value


#: An integer field of a request body: a JSON integer, ``13.0`` read as 13 (:func:`integral`).
Integer = Annotated[StrictInt, BeforeValidator(integral)]

__all__ = ["Integer", "integral"]
