#!/usr/bin/env python3
"""The label check (tests/support/check_test_labels.py) on made-up ctest listings: a right one passes,
and each kind of wrong label it exists to catch is reported, naming the test. Run by ctest as
label_check_rejects_mislabelled_tests; by hand: python3 tests/scripts/test_check_test_labels.py
"""
import os
import sys
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "support"))
import check_test_labels  # noqa: E402

BINARIES = [
    {"name": "unit_gpu_tests", "path": "/b/tests/unit_gpu_tests", "labels": "gpu"},
    {"name": "property_gpu_tests", "path": "/b/tests/property_gpu_tests", "labels": "gpu,property"},
    {"name": "property_cpu_tests", "path": "/b/tests/property_cpu_tests", "labels": "cpu,property"},
    {"name": "multi_gpu_tests", "path": "/b/tests/multi_gpu_tests", "labels": "gpu,multigpu"},
]
ONE_GPU = [{"requirements": [{".type": "gpus", "slots": 1}]}]


def test(name, binary, labels, groups=None):
    props = [{"name": "LABELS", "value": labels}]
    if groups is not None:
        props.append({"name": "RESOURCE_GROUPS", "value": groups})
    command = [f"/b/tests/{binary}", f"--gtest_filter={name}"] if binary else ["/usr/bin/python3", "x.py"]
    return {"name": name, "command": command, "properties": props}


def good_listing():
    return {"tests": [
        test("ReduceGpu.A", "unit_gpu_tests", ["gpu"], ONE_GPU),
        test("ReducePropGpu.B", "property_gpu_tests", ["gpu", "property"], ONE_GPU),
        test("Top2OpProperty.C", "property_cpu_tests", ["cpu", "property"]),
        test("Multi.D", "multi_gpu_tests", ["gpu", "multigpu"], ONE_GPU * 2),
        test("report_renders_fixture", None, ["cpu"]),
    ]}


class LabelCheck(unittest.TestCase):
    def problems_after(self, change):
        listing = good_listing()
        change(listing["tests"])
        return check_test_labels.find_problems(listing, BINARIES)

    def test_right_labels_pass(self):
        self.assertEqual(check_test_labels.find_problems(good_listing(), BINARIES), [])

    def test_property_gpu_test_with_only_property_fails(self):
        # What gtest_discover_tests(... PROPERTIES LABELS "property;gpu") produced.
        problems = self.problems_after(lambda t: t.__setitem__(1, test("ReducePropGpu.B", "property_gpu_tests",
                                                                        ["property"], ONE_GPU)))
        self.assertTrue(any("ReducePropGpu.B" in p and "exactly one of the labels cpu and gpu" in p for p in problems))
        self.assertTrue(any("ReducePropGpu.B" in p and "missing ['gpu']" in p for p in problems))

    def test_cpu_property_test_missing_property_fails(self):
        problems = self.problems_after(lambda t: t.__setitem__(2, test("Top2OpProperty.C", "property_cpu_tests",
                                                                        ["cpu"])))
        self.assertEqual(len(problems), 1)
        self.assertIn("missing ['property']", problems[0])

    def test_both_cpu_and_gpu_fails(self):
        problems = self.problems_after(lambda t: t.__setitem__(4, test("report_renders_fixture", None,
                                                                        ["cpu", "gpu"], ONE_GPU)))
        self.assertTrue(any("report_renders_fixture" in p and "exactly one" in p for p in problems))

    def test_no_kind_label_fails(self):
        problems = self.problems_after(lambda t: t.append(test("consumer_example", None, ["example"])))
        self.assertTrue(any("consumer_example" in p and "exactly one" in p for p in problems))

    def test_gpu_test_without_resource_group_fails(self):
        problems = self.problems_after(lambda t: t.__setitem__(0, test("ReduceGpu.A", "unit_gpu_tests", ["gpu"])))
        self.assertEqual(len(problems), 1)
        self.assertIn("0 GPU resource group(s)", problems[0])

    def test_multigpu_test_with_one_gpu_fails(self):
        problems = self.problems_after(lambda t: t.__setitem__(3, test("Multi.D", "multi_gpu_tests",
                                                                        ["gpu", "multigpu"], ONE_GPU)))
        self.assertEqual(len(problems), 1)
        self.assertIn("needs 2", problems[0])

    def test_unknown_label_fails(self):
        problems = self.problems_after(lambda t: t.__setitem__(4, test("report_renders_fixture", None,
                                                                        ["cpu", "slow"])))
        self.assertEqual(len(problems), 1)
        self.assertIn("['slow']", problems[0])

    def test_binary_without_tests_fails(self):
        problems = self.problems_after(lambda t: t.pop(3))
        self.assertEqual(problems, ["multi_gpu_tests: no tests in ctest's list (not built, or its test discovery "
                                    "failed)"])


if __name__ == "__main__":
    unittest.main()
