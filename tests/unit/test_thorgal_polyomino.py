"""Exhaustive checks of the Thorgal polyomino geometry."""

from __future__ import annotations

import itertools

import pytest

from domain.games.thorgal.rules import polyomino as P

EXPECTED_ORIENTATIONS = {
    "I1": 1,
    "I2": 2,
    "I3": 2,
    "V3": 4,
    "I4": 2,
    "L4": 8,
    "O4": 1,
    "T4": 4,
    "S4": 4,
    "P5": 8,
    "L5": 8,
    "U5": 4,
}


def all_symmetries(cells):
    out = set()
    cur = P.normalize(cells)
    for mirrored in (cur, P.reflect(cur)):
        c = mirrored
        for _ in range(4):
            out.add(c)
            c = P.rotate(c)
    return out


@pytest.mark.parametrize("shape", sorted(P.SHAPES))
def test_orientations_are_exactly_the_distinct_rotations_and_reflections(shape):
    forms = P.orientations(shape)
    assert len(forms) == EXPECTED_ORIENTATIONS[shape]
    assert len(set(forms)) == len(forms)
    assert set(forms) == all_symmetries(P.SHAPES[shape])
    for form in forms:
        assert len(form) == P.size(shape)
        assert P.is_connected(form)
        assert min(r for r, _ in form) == 0 and min(c for _, c in form) == 0


@pytest.mark.parametrize("shape", sorted(P.SHAPES))
def test_four_rotations_and_double_reflection_are_the_identity(shape):
    cells = P.normalize(P.SHAPES[shape])
    c = cells
    for _ in range(4):
        c = P.rotate(c)
    assert c == cells
    assert P.reflect(P.reflect(cells)) == cells


def test_tile_set_covers_sizes_one_to_five():
    assert {P.size(s) for s in P.SHAPES} == {1, 2, 3, 4, 5}
    assert P.shapes_of_size(3) == ("I3", "V3")
    assert P.shapes_of_size(6) == ()


def test_cells_at_translates_and_rejects_unknown_orientations():
    assert P.cells_at("I2", 1, 2, 3) == frozenset({(2, 3), (3, 3)})
    with pytest.raises(ValueError):
        P.cells_at("O4", 1, 0, 0)


def test_adjacency_needs_a_shared_edge_and_no_overlap():
    a = frozenset({(0, 0)})
    assert P.is_adjacent(a, frozenset({(0, 1)}))
    assert P.is_adjacent(a, frozenset({(1, 0)}))
    assert not P.is_adjacent(a, frozenset({(1, 1)}))  # corner only
    assert not P.is_adjacent(a, frozenset({(0, 0), (0, 1)}))  # overlap
    assert not P.is_adjacent(a, frozenset({(0, 2)}))


def test_connectivity_detects_split_groups():
    assert P.is_connected(frozenset({(0, 0), (0, 1), (1, 1)}))
    assert not P.is_connected(frozenset({(0, 0), (1, 1)}))
    assert P.is_connected(frozenset())


@pytest.mark.parametrize("rows,cols", [(1, 1), (2, 3), (3, 3), (4, 5)])
@pytest.mark.parametrize("shape", sorted(P.SHAPES))
def test_placements_on_an_empty_grid_match_brute_force(shape, rows, cols):
    got = {
        cells
        for _, _, _, cells in P.generate_placements(shape, rows, cols, frozenset())
    }
    brute = set()
    for form in P.orientations(shape):
        for r, c in itertools.product(range(-5, rows + 5), range(-5, cols + 5)):
            cells = frozenset((a + r, b + c) for a, b in form)
            if all(0 <= x < rows and 0 <= y < cols for x, y in cells):
                brute.add(cells)
    assert got == brute
    listed = [
        cells
        for _, _, _, cells in P.generate_placements(shape, rows, cols, frozenset())
    ]
    assert len(listed) == len(set(listed))


@pytest.mark.parametrize("shape", sorted(P.SHAPES))
def test_placements_avoid_blocked_cells_and_stay_in_bounds(shape):
    blocked = frozenset({(1, 1), (2, 3)})
    for o, r, c, cells in P.generate_placements(shape, 4, 5, blocked):
        assert not cells & blocked
        assert P.fits(cells, 4, 5, blocked)
        assert cells == P.cells_at(shape, o, r, c)


@pytest.mark.parametrize("shape", sorted(P.SHAPES))
def test_placements_touching_a_group_are_adjacent_and_disjoint(shape):
    group = frozenset({(2, 2)})
    found = list(P.generate_placements(shape, 5, 5, group, touch=group))
    assert found
    for *_, cells in found:
        assert P.is_adjacent(cells, group)
        assert P.is_connected(cells | group)


@pytest.mark.parametrize("shape", sorted(P.SHAPES))
def test_rightward_rule_never_goes_left_of_the_path(shape):
    path = frozenset({(1, 0), (1, 1), (1, 2)})
    for *_, cells in P.generate_placements(shape, 3, 8, path, touch=path, min_col=2):
        assert P.is_rightward(cells, 2)
        assert min(c for _, c in cells) >= 2
        assert P.is_adjacent(cells, path)


def test_rightward_rule_allows_going_up_in_the_rightmost_column():
    path = frozenset({(2, 0), (2, 1)})
    found = {
        cells
        for *_, cells in P.generate_placements("I2", 3, 4, path, touch=path, min_col=1)
    }
    assert frozenset({(0, 1), (1, 1)}) in found  # straight up the rightmost column
    assert frozenset({(1, 0), (1, 1)}) not in found  # would reach left of column 1


def test_need_col_forces_a_cell_in_that_column():
    for *_, cells in P.generate_placements("I3", 3, 6, frozenset(), need_col=0):
        assert any(c == 0 for _, c in cells)


def test_no_placement_when_the_grid_is_too_small_or_full():
    assert list(P.generate_placements("I4", 3, 3, frozenset())) == []
    full = frozenset(itertools.product(range(2), range(2)))
    assert list(P.generate_placements("I1", 2, 2, full)) == []
