# SPDX-License-Identifier: GPL-3.0-or-later
"""The advisor: ``cipherbench advise --for TARGET``.

From measured evidence (the store's primitive, ssh, gpg and tls results, measuring what is
missing), rank the candidates a target can use, keep only what the security policy allows,
say whether crypto or the link/disk is the bottleneck, and produce config lines that the
real tools accept.

Modules, one job each:

- ``targets``: what each ``--for`` target is (transport or at rest, candidate family, config
  families).
- ``candidates``: the choices of each family (SSH cipher+MAC, TLS suites, gpg algorithms and
  age, LUKS cipher specs) with their names in every tool and their catalog grade.
- ``policy``: modern / compat / legacy over the catalog grades.
- ``evidence``: the stored runs, read by layer (the newest complete run of each), and
  ``gather``/``measure``: the quick measurements of what is missing.
- ``families``: each family as one object: candidates, the tool's default (``facts``: read
  from the installed tools), evidence layers in order of authority.
- ``verdicts``: the answer as a record; ``wording``: every sentence rendered from it.
- ``rank``, ``bottleneck``: ordering and the bottleneck sentence (pure functions).
- ``configs``: one module per output family, producing exact lines.
- ``validate``: every line checked against the real tool where it is installed.
- ``engine``: puts it together into an ``Advice``; ``record`` stores it as a run.
"""
