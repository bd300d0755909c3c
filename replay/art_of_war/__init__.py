"""What Art of War adds downstream of its engine: views (hands, deck order and the re-draw hidden), explanations,
the text record, both battlefields drawn in a terminal, the statistics' labels and its own statistics. Registered in
``replay.systems`` as ``PLUGIN``."""

from replay.art_of_war import analytics, explain, notation, terminal, views
from replay.plugin import ReplayParts

PLUGIN = ReplayParts(name="art-of-war", views=views.VIEWS, explanations=explain, records=notation, terminal=terminal,
                     labels=analytics, analytics=analytics)
