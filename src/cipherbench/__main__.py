"""``python -m cipherbench``: the same as the ``cipherbench`` command."""
from cipherbench.cli import run

run()
