"""Plumbing serving several jobs and knowing none: time slices, helper processes, atomic writes."""
