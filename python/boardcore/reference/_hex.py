"""What the hex twins (Rive, Strands) share: the cells of a board given as rows, their
neighbours, and connected groups.

A board is a list of rows from the top, each ``(length, offset)``: cell ``i`` of row ``r`` sits at
``x = offset + 2 * i`` half-cells. Two cells are neighbours when they are in one row with ``x``
two apart, or in adjacent rows with ``x`` one apart. Groups are found by breadth-first search.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterable

from boardcore.reference._game import cell_name


class HexCells:
    """The cells of a hex board: names in board order, their ``(row, x)`` places, their
    neighbours (each in board order)."""

    def __init__(self, rows: Iterable[tuple[int, int]]) -> None:
        self.rows = tuple(rows)
        self.names: list[str] = []
        self.places: list[tuple[int, int]] = []  # (row, x) of every cell, x in half-cells
        for row, (length, offset) in enumerate(self.rows):
            for i in range(length):
                self.names.append(cell_name(row, i))
                self.places.append((row, offset + 2 * i))
        self.index = {name: i for i, name in enumerate(self.names)}
        self.size = len(self.names)
        self.neighbours: list[tuple[int, ...]] = []
        for row, x in self.places:
            around = [
                j
                for j, (r, y) in enumerate(self.places)
                if (r == row and abs(y - x) == 2) or (abs(r - row) == 1 and abs(y - x) == 1)
            ]
            self.neighbours.append(tuple(around))  # board order, as j runs in board order

    def reach(self, start: int, member: Callable[[int], bool]) -> set[int]:
        """The cells connected to ``start`` through neighbours for which ``member`` holds
        (``start`` included, whatever ``member`` says of it)."""
        seen = {start}
        queue = deque([start])
        while queue:
            i = queue.popleft()
            for j in self.neighbours[i]:
                if j not in seen and member(j):
                    seen.add(j)
                    queue.append(j)
        return seen

    def groups(self, member: Callable[[int], bool]) -> list[set[int]]:
        """The connected groups of the cells for which ``member`` holds, in the board order of
        each group's first cell."""
        found: list[set[int]] = []
        grouped: set[int] = set()
        for start in range(self.size):
            if start not in grouped and member(start):
                group = self.reach(start, member)
                grouped |= group
                found.append(group)
        return found
