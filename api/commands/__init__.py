"""Subcommands of ``warlog``: each module here defines ``register(subparsers)`` and is found automatically."""
