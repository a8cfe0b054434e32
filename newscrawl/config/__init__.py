"""What the crawl is told: the sites file, checks of it and of the settings, where its files are."""
