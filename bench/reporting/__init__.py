"""The pieces behind bench/report.py (the command line lives there, not here).

    common.py    constants, the log line, number and shape formatting
    load.py      reading the benchmark JSON and the per-benchmark views of it (Sgemm, Reduce, Top2)
    plots.py     the PNGs (matplotlib, Agg backend)
    markdown.py  summary.md and the README results block
    dist.py      dist.json (gpuprims::dist, one GPU against all): its view, plot and section

The package is not called `report` on purpose: bench/report.py sits beside it, and a package of
the same name would shadow the script for anything that imports `report` from bench/.
"""
