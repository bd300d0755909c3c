"""HeroScape: the hex battlefield with heights (issue 17) — work in progress.

This package holds the map geometry of the digest ``shared/rules/heroscape.md`` (§3 movement, §4 engagement, §5
line of sight R1 and height bonuses) in ``engine.heroscape.geometry``. The round, dice events, setup and bots are
not built yet, so the system is not registered in ``engine.systems`` (see docs/heroscape.md).
"""
