"""The game's data files (the block atlas ``atlas.png``): package data, found by `world.shipped`."""
