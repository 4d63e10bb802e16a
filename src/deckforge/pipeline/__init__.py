"""The build: every file of every edition under every profile, made only if it changed.

``pipeline`` is the recipe (:func:`~deckforge.pipeline.recipe.build`); ``plan`` turns the
model into tasks, one per file; ``run`` lays out and renders them in parallel workers and
moves the files into place; ``outputs`` says what each file holds and its manifest entry;
``cache`` decides what is unchanged. This package imports nothing heavy at the top, so
that a build with nothing to do starts quickly.
"""
