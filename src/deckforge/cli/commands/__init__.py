"""One module per command: ``NAME``, ``HELP``, ``arguments(parser)`` and ``run(args)``."""
