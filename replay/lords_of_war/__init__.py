"""What Lords of War adds downstream of its engine: views (hidden information), explanations, the text record's
moves, the mat drawn in a terminal, the statistics' labels and its own statistics. Registered in ``replay.systems``
as ``PLUGIN``."""

from replay.lords_of_war import analytics, explain, notation, terminal, views
from replay.plugin import ReplayParts

PLUGIN = ReplayParts(name="lords-of-war", views=views.VIEWS, explanations=explain, records=notation, terminal=terminal,
                     labels=analytics, analytics=analytics)
