"""`gpaudit sweep`: privacy maps over parameter grids, on one machine or a Dask cluster.

    grid.py     --vary NAME=SPEC: exact values, lists and linear / log ranges
    points.py   a point = the file with params substituted, validated as `gpaudit check` does
    worker.py   run_point: one point checked by `gpaudit check`'s own path, as a plain dict
    execute.py  local worker processes (-j) or a Dask cluster (--scheduler), streamed back
    store.py    DIR/points: finished points, so an interrupted sweep resumes
    table.py    rows, sweep.csv and sweep.json
    figure.py   sweep.png;  html.py  sweep.html
    run.py      plan -> execute -> outputs;  cli.py  the command;  catalog.py  reports/sweeps/

See docs/sweep.md.
"""
