"""The game families the project plays, one package each, all built on :mod:`hoola.core`."""
