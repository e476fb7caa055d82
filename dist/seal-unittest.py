# Loaded by the runner canary's run under unittest (judge/seal.ts) as `sitecustomize`, from a folder
# PYTHONPATH puts first: it runs at the interpreter's start, before any module of the project, and
# keeps unittest's test case classes as they are then (their own attributes, copied), so the loop's
# copies of the tests that failed (judge/shadow.ts) run with the assertions the code under test may
# patch afterwards restored. They are kept under a module name only the copies know, taken from the
# environment (and removed from it: the code under test reads the environment too). Then the
# sitecustomize this one stands in front of (the installation's own) runs, as it would have.
import importlib.machinery
import importlib.util
import os
import sys


def _keep():
    name = os.environ.pop("PHUC_SEAL_UNITTEST", "")
    if not name:
        return
    import types
    import unittest
    import unittest.async_case

    kept = types.ModuleType(name)
    kept.classes = {c: dict(vars(c)) for c in (unittest.TestCase, unittest.async_case.IsolatedAsyncioTestCase)}
    sys.modules[name] = kept


def _chain():
    here = os.path.dirname(os.path.abspath(__file__))
    rest = [p for p in sys.path if os.path.abspath(p or os.curdir) != here]
    spec = importlib.machinery.PathFinder.find_spec("sitecustomize", rest)
    if spec is not None and spec.loader is not None:
        spec.loader.exec_module(importlib.util.module_from_spec(spec))


_keep()
_chain()
