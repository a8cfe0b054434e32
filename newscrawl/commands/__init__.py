"""Project commands (``COMMANDS_MODULE``): ``crawl`` checks spider arguments first."""
