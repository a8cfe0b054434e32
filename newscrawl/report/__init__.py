"""What a person reads about a run: the progress line, the per-site summary, the block at the end."""
