"""The example mods, loaded by default (see README.md here).

A package only so that a wheel ships this folder and `world.shipped` finds it: the mod loader
imports each ``name.py`` here by path, as the mod ``name``; nothing imports ``mods.name``.
"""
