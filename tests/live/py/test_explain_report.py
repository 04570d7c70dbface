# SPDX-License-Identifier: Apache-2.0
"""Unit tests of explain_report.py's judgement of fluid's refusals.

  python test_explain_report.py     (stdlib only; the lane runs it in the explain check)

Each case is a gen.tsv (what fluid did), an explain.tsv (what Flink did) and
an expected-refusals.tsv, run through the script itself; its exit status and
its words are checked.
"""
import os
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
SCRIPT = os.path.join(HERE, "explain_report.py")
ERR = "x.fluid.yaml:5:9: error: 'weird name' is not a plain SQL identifier"


def run(gen, explain, refusals, known="# none\n"):
    with tempfile.TemporaryDirectory() as d:
        paths = {}
        for name, text in (("gen", gen), ("explain", explain), ("refusals", refusals), ("known", known)):
            paths[name] = os.path.join(d, name + ".tsv")
            with open(paths[name], "w") as f:
                f.write(text)
        p = subprocess.run([sys.executable, SCRIPT, "--gen", paths["gen"], "--report", paths["explain"],
                            "--known", paths["known"], "--refusals", paths["refusals"]],
                           capture_output=True, text=True, timeout=60)
        return p.returncode, p.stdout + p.stderr


GEN = f"a\thard\taccepted\t\nodd\thard\trefused\t{ERR}\n"
EXPLAIN = "a\tok\n"
LISTED = "# comment\nodd\tnot a plain SQL identifier\tnames must be plain identifiers\n"


class Refusals(unittest.TestCase):
    def test_listed_refusal_passes(self):
        rc, out = run(GEN, EXPLAIN, LISTED)
        self.assertEqual(rc, 0, out)
        self.assertIn("fluid refused odd, as expected-refusals.tsv says", out)

    def test_unlisted_refusal_fails(self):
        rc, out = run(GEN, EXPLAIN, "# empty\n")
        self.assertEqual(rc, 1, out)
        self.assertIn("fluid refused odd, which is expected to pass", out)

    def test_refused_for_another_reason_fails(self):
        rc, out = run(GEN, EXPLAIN, "odd\thas no field adress\tthe wrong reason\n")
        self.assertEqual(rc, 1, out)
        self.assertIn("for another reason", out)

    def test_listed_but_accepted_fails(self):
        rc, out = run("a\thard\taccepted\t\nodd\thard\taccepted\t\n", "a\tok\nodd\tok\n", LISTED)
        self.assertEqual(rc, 1, out)
        self.assertIn("but fluid accepts it now", out)

    def test_listed_but_not_generated_fails(self):
        rc, out = run("a\thard\taccepted\t\n", EXPLAIN, LISTED)
        self.assertEqual(rc, 1, out)
        self.assertIn("the lane does not generate it", out)

    def test_flink_refusal_still_fails(self):
        rc, out = run(GEN, "a\tfailed\t4\tValidation failed\n", LISTED)
        self.assertEqual(rc, 1, out)
        self.assertIn("Flink refused a", out)

    def test_the_lanes_list_parses(self):
        rc, out = run(GEN, EXPLAIN, open(os.path.join(os.path.dirname(HERE), "expected-refusals.tsv")).read())
        self.assertNotIn("a line needs", out)


if __name__ == "__main__":
    unittest.main(verbosity=1)
