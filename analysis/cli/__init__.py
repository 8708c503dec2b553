"""The ``tricklab`` command line: one module per verb, on top of ``analysis`` and ``solver``."""
