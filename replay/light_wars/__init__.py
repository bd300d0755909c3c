"""What Light Wars adds downstream of its engine: views (the screened deployment and the seed hidden), explanations,
the text record, the map drawn in a terminal, the statistics' labels and its own statistics. Registered in
``replay.systems`` as ``PLUGIN``."""

from replay.light_wars import analytics, explain, notation, terminal, views
from replay.plugin import ReplayParts

PLUGIN = ReplayParts(name="light-wars", views=views.VIEWS, explanations=explain, records=notation, terminal=terminal,
                     labels=analytics, analytics=analytics)
