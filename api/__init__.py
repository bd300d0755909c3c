"""HTTP (FastAPI) and the ``warlog`` command line: translate requests into calls and errors into statuses."""
