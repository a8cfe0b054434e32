"""Spiders of newscrawl: ``news`` crawls the sites of a sites.yaml file."""
