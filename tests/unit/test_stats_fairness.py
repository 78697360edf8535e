"""The fairness statistics: the chi-square survival function against known
values (and scipy when it is installed), and shuffle tables calibrated so a
fair shuffle passes and the classic naive-swap bug fails."""

from __future__ import annotations

import math
import random
import statistics

import pytest

from domain.contract.core import shuffle_outcomes
from projections.fairness import chi2_sf, chi_square_test, gammaincc


@pytest.mark.parametrize(
    ("x", "dof", "p"),
    [
        (3.841458820694124, 1, 0.05),
        (11.070497693516351, 5, 0.05),
        (6.634896601021214, 1, 0.01),
        (124.34211340400407, 100, 0.05),
        (18.307038053275146, 10, 0.05),
        (3.940299136119657, 10, 0.95),
        (50.89218131151707, 30, 0.01),
        (0.0, 3, 1.0),
        (2.0, 2, math.exp(-1)),
        (1000.0, 5, 0.0),
    ],
)
def test_chi2_sf_known_values(x, dof, p):
    assert chi2_sf(x, dof) == pytest.approx(p, abs=1e-12, rel=1e-9)


def test_gammaincc_of_one_is_the_exponential():
    for x in (0.1, 1.0, 2.5, 30.0):
        assert gammaincc(1.0, x) == pytest.approx(math.exp(-x), rel=1e-12)


def poisson_tail(k: int, x: float) -> float:
    """Q(k, x) for integer k: P(Poisson(x) < k), summed in log space."""
    return sum(math.exp(-x + i * math.log(x) - math.lgamma(i + 1)) for i in range(k))


@pytest.mark.parametrize("dof", [2, 4, 10, 50, 122, 400, 842])
def test_chi2_sf_matches_the_closed_form_for_even_degrees_of_freedom(dof):
    for q in (0.3, 0.7, 0.95, 1.0, 1.05, 1.4, 2.5):
        x = dof * q
        assert chi2_sf(x, dof) == pytest.approx(
            poisson_tail(dof // 2, x / 2), rel=1e-9, abs=1e-300
        )


def test_chi2_sf_matches_scipy():
    stats = pytest.importorskip("scipy.stats")
    for dof in (1, 2, 5, 11, 35, 121, 841):
        for q in (0.2, 0.8, 1.0, 1.3, 3.0):
            x = dof * q
            assert chi2_sf(x, dof) == pytest.approx(
                stats.chi2.sf(x, dof), rel=1e-9, abs=1e-300
            )


def test_a_fair_die_passes_and_a_loaded_one_fails():
    rnd = random.Random(1)
    fair = [0] * 6
    loaded = [0] * 6
    for _ in range(3000):
        fair[rnd.randrange(6)] += 1
        loaded[min(5, rnd.randrange(7))] += 1
    assert chi_square_test("d6", fair)["p_value"] > 0.01
    assert chi_square_test("d6", loaded)["p_value"] < 1e-9
    assert chi_square_test("d6", fair)["dof"] == 5


def table(n: int, shuffles: int, shuffle, rnd: random.Random) -> list[int]:
    counts = [0] * (n * n)
    items = [f"c{i:02d}" for i in range(n)]
    for _ in range(shuffles):
        for o in shuffle_outcomes("x", tuple(shuffle(list(items), rnd))):
            counts[o.value] += 1
    return counts


def fair_shuffle(items, rnd):
    rnd.shuffle(items)
    return items


def naive_shuffle(items, rnd):
    for i in range(len(items)):
        j = rnd.randrange(len(items))  # the classic bug: should be randrange(i + 1)
        items[i], items[j] = items[j], items[i]
    return items


def test_shuffle_statistic_is_calibrated_to_its_degrees_of_freedom():
    rnd = random.Random(2)
    results = [
        chi_square_test("x_shuffle:n=4", table(4, 60, fair_shuffle, rnd))
        for _ in range(300)
    ]
    assert results[0]["kind"] == "shuffle" and results[0]["dof"] == 9
    assert statistics.mean(r["statistic"] for r in results) == pytest.approx(9, abs=1.0)
    assert sum(r["p_value"] < 0.05 for r in results) < 300 * 0.1


def test_a_naive_shuffle_fails():
    rnd = random.Random(3)
    assert (
        chi_square_test("x_shuffle:n=6", table(6, 3000, fair_shuffle, rnd))["p_value"]
        > 1e-3
    )
    assert (
        chi_square_test("x_shuffle:n=6", table(6, 3000, naive_shuffle, rnd))["p_value"]
        < 1e-9
    )
