"""The game's data files (the block atlas ``atlas.png``, the base game's sounds ``sounds/``):
package data, found by `world.shipped`."""
