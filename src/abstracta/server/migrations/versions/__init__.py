"""The revisions (Alembic loads every ``NNNN_name.py`` here; this file makes the folder a package the wheel carries)."""
