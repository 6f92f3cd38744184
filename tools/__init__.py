"""Scripts that make the game's assets (run as modules from the repository root)."""
