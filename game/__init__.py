"""The ursina shell: window, input, player, chunk entities, HUD. Thin: rules live in `world`."""
