"""The ursina shell: window, input, player, chunk entities, HUD. Thin: rules live in `world`."""

import os

# numpy marks every array of 4 MiB or more for transparent huge pages (``madvise``); the heap
# they come from then stays marked, and the kernel's khugepaged keeps collapsing the game's
# heap into huge pages with the process's memory map locked for writing. A frame's page fault
# waited 20 ms on that lock in a walk at view distance 8 (its kernel stack: a page fault in
# ``lock_mm_and_find_vma``). Frames were no slower without them. numpy reads this when first
# imported: the game's package is imported before it. A player's own setting wins.
os.environ.setdefault("NUMPY_MADVISE_HUGEPAGE", "0")
