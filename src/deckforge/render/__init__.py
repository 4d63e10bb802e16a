"""Renderers: draw laid-out documents into files. Each declares a ``name`` and ``suffix``."""
