"""Fanorona's first lesson (issue 39): capturing by approach and by withdrawal, a chain, the
rules of a chain, and the plain step when nothing can be captured. Spec: fanorona.md §3."""
LESSONS = ()
