"""First lesson (issue 39)."""
LESSONS = ()
