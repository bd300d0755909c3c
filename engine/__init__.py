"""The rules: one package per game system, pure functions of state and events.

Imports ``events`` only. No clock, uuid, ``random``, I/O or database here.
"""
