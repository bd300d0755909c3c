"""HeroScape replay parts (issue 17, in progress): so far the terminal picture of a map (``mat``)."""
