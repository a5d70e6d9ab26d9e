"""What cipherbench measures, one module per scenario.

``primitive``: the raw primitives through the C core (``cipherbench run``). The real-path
scenarios (tls, ssh, gpg) live beside it and use the same building blocks:
``cipherbench.stats.until_stable`` to decide when a number is good enough,
``cipherbench.store.Store``/``Result`` to keep every result as it arrives, and
``cipherbench.warnings`` for what the user should fix.
"""
