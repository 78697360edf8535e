"""The benchmark harness: ``ledger bench [--quick]`` runs :func:`bench.harness.run_all`.

Every figure is measured in the same run against baselines on the same
machine and the same PostgreSQL, because absolute numbers on a 2-core box
mean little; ``results.md`` reports ratios.  Nothing here asserts on timing.
"""
