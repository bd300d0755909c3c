"""What HeroScape adds downstream of its engine: views (order markers and the seed hidden), explanations, the text
record, the hex map drawn in a terminal, the statistics' labels and its own statistics. Registered in
``replay.systems`` as ``PLUGIN``."""

from replay.heroscape import analytics, explain, notation, terminal, views
from replay.plugin import ReplayParts

PLUGIN = ReplayParts(name="heroscape", views=views.VIEWS, explanations=explain, records=notation, terminal=terminal,
                     labels=analytics, analytics=analytics)
