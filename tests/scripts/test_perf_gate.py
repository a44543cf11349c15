#!/usr/bin/env python3
"""scripts/perf_gate.py on the fixture results in tests/fixtures/perf_gate/ (made-up numbers):
reference/ is the committed run; same_code/ a rerun of unchanged code (ratios within the tolerance);
slowed_tuned/ the tuned SGEMM 6% behind at 4096^3 and 20% behind on a short held-out shape;
records_on_one_side/ a shape not run and a new variant; other_gpu/ another GPU model. ctest runs one
case per test (perf_gate_<case>); by hand: python3 tests/scripts/test_perf_gate.py [PerfGate.test_<case>]
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
GATE = os.path.join(HERE, "..", "..", "scripts", "perf_gate.py")
FIXTURES = os.path.join(HERE, "..", "fixtures", "perf_gate")


def gate(*args):
    """(exit status, output) of the gate with the given arguments."""
    p = subprocess.run([sys.executable, GATE, *args], capture_output=True, text=True)
    return p.returncode, p.stdout + p.stderr


def fixture(name):
    return os.path.join(FIXTURES, name)


def fail_lines(output):
    return [line for line in output.splitlines() if line.startswith("FAIL ")]


class PerfGate(unittest.TestCase):
    def test_passes_on_equal_ratios(self):
        rc, out = gate("--fresh", fixture("same_code"), "--reference", fixture("reference"))
        self.assertEqual(rc, 0, out)
        self.assertEqual(fail_lines(out), [], out)
        self.assertIn("sgemm.json: 4 ratios compared, 0 dropped", out)
        self.assertIn("not gated: 3 vendor rows, 1 skipped rows", out)
        self.assertIn("PASS", out)

    def test_fails_on_a_drop_past_the_tolerance(self):
        rc, out = gate("--fresh", fixture("slowed_tuned"), "--reference", fixture("reference"))
        self.assertEqual(rc, 1, out)
        fails = fail_lines(out)
        self.assertEqual(len(fails), 2, out)
        # Each failing row names the benchmark, the variant and the shape.
        self.assertIn("sgemm tuned (impl=ours) m=4096 n=4096 k=4096: ratio_to_cublas 0.957 -> 0.899 (-6.1%", fails[0])
        self.assertIn("sgemm tuned (impl=ours, suite=heldout, class=tall_skinny) m=3000 n=96 k=2048", fails[1])
        self.assertIn("tolerance 15%", fails[1])  # a short record: the wider tolerance, still exceeded
        # At a 7% tolerance the 6.1% drop passes; the held-out shape's 20% still fails.
        rc, out = gate("--fresh", fixture("slowed_tuned"), "--reference", fixture("reference"), "--tolerance", "0.07")
        self.assertEqual(rc, 1, out)
        self.assertEqual(len(fail_lines(out)), 1, out)
        self.assertIn("suite=heldout", fail_lines(out)[0])
        # Holding every record to 5% fails the short rerun record of same_code too (-10%).
        rc, out = gate("--fresh", fixture("same_code"), "--reference", fixture("reference"), "--short-ms", "0")
        self.assertEqual(rc, 1, out)
        self.assertIn("reduce shuffle (impl=ours) n=65536: ratio_to_cub 1 -> 0.9", fail_lines(out)[0])

    def test_reports_records_on_one_side_only(self):
        rc, out = gate("--fresh", fixture("records_on_one_side"), "--reference", fixture("reference"))
        self.assertEqual(rc, 0, out)
        self.assertIn("1 record(s) in the reference only (not measured now), not gated:\n"
                      "  sgemm tuned (impl=ours) m=1000 n=3000 k=500", out)
        self.assertIn("1 record(s) in the fresh run only (no committed value), not gated:\n"
                      "  reduce shuffle_v2 (impl=ours) n=268435456", out)
        self.assertIn("top2.json: in the reference only (benchmark not run now)", out)

    def test_keeps_the_best_of_several_fresh_runs(self):
        # A drop that one run shows and a rerun of the same code does not is noise.
        rc, out = gate("--fresh", fixture("slowed_tuned"), "--fresh", fixture("same_code"),
                       "--reference", fixture("reference"))
        self.assertEqual(rc, 0, out)
        # A drop in every run is not.
        rc, out = gate("--fresh", fixture("slowed_tuned"), "--fresh", fixture("slowed_tuned"),
                       "--reference", fixture("reference"))
        self.assertEqual(rc, 1, out)
        self.assertIn("best of 2 runs", out)

    def test_refuses_other_gpu_models(self):
        rc, out = gate("--fresh", fixture("other_gpu"), "--reference", fixture("reference"))
        self.assertEqual(rc, 2, out)
        self.assertIn("only comparable on the same GPU model", out)
        # By default the reference is results/<slug of the GPU>: none for this one.
        rc, out = gate("--fresh", fixture("other_gpu"), "--results-root", FIXTURES)
        self.assertEqual(rc, 2, out)
        self.assertIn("no committed results for FIXTURE GPU B", out)

    def test_finds_the_reference_of_the_same_gpu_model(self):
        with tempfile.TemporaryDirectory() as root:
            shutil.copytree(fixture("reference"), os.path.join(root, "fixture-gpu-not-a-measurement"))
            rc, out = gate("--fresh", fixture("slowed_tuned"), "--results-root", root)
            self.assertEqual(rc, 1, out)
            self.assertIn("fixture-gpu-not-a-measurement", out)
            self.assertEqual(len(fail_lines(out)), 2, out)

    def test_tells_records_apart_by_their_inputs(self):
        # sgemm_bench's accuracy suite writes one record per algorithm and kind of inputs at one shape:
        # "inputs" is an identity field, so they are two records, not a duplicate key.
        def record(inputs, max_err):
            return {"suite": "accuracy", "algorithm": "tf32x3", "impl": "ours", "inputs": inputs, "m": 1024, "n": 1024,
                    "k": 4096, "max_err": max_err}
        doc = {"benchmark": "sgemm", "gpu": "FIXTURE GPU (not a measurement)", "results": [
            {"algorithm": "tuned", "impl": "ours", "m": 4096, "n": 4096, "k": 4096, "time_ms": 3.0,
             "ratio_to_cublas": 0.9},
            record("uniform", 1.5e-7), record("wide_exponent", "nan")]}
        with tempfile.TemporaryDirectory() as root:
            with open(os.path.join(root, "sgemm.json"), "w") as f:
                json.dump(doc, f)
            rc, out = gate("--fresh", root, "--reference", root)
            self.assertEqual(rc, 0, out)
            self.assertIn("sgemm.json: 1 ratios compared, 0 dropped", out)


if __name__ == "__main__":
    unittest.main()
