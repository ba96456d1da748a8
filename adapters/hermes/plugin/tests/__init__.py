"""Unit tests of the tollgate Hermes plugin (stdlib unittest; run from the repository root with
python3 -m unittest discover -s adapters/hermes/plugin/tests -t adapters/hermes/plugin)."""

import logging as _logging

# The plugin logs every failure it turns into a block; the tests cause many on purpose.
_logging.getLogger("tollgate.hermes").setLevel(_logging.CRITICAL)
