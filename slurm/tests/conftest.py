"""slurm/tests' fixtures (slurmtest.py: the copies of the repository and the stand-ins both modules use)."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from slurmtest import built, fakecuda, fakencu, fakerepo, fpath, repo  # noqa: E402,F401
