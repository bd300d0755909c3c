"""What L5R adds downstream of its engine: views (hands, face-down provinces, focus cards and the seed hidden),
explanations, the text record, the table drawn in a terminal, the statistics' labels and its own statistics.
Registered in ``replay.systems`` as ``PLUGIN``."""

from replay.l5r import analytics, explain, notation, terminal, views
from replay.plugin import ReplayParts

PLUGIN = ReplayParts(name="l5r", views=views.VIEWS, explanations=explain, records=notation, terminal=terminal,
                     labels=analytics, analytics=analytics)
