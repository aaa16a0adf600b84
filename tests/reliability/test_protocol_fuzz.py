"""The raw-pipe protocol attack (protocol_fuzz.py), seeded and bounded in time: about 25
seconds here; `MTGR_PROTOCOL_FUZZ_SECONDS=600` runs it for ten minutes and
`MTGR_PROTOCOL_FUZZ_SEED` picks other sessions (fuzz/README.md)."""

from __future__ import annotations

import os

from protocol_fuzz import fuzz


def test_the_protocol_attack_finds_nothing() -> None:
    seconds = float(os.environ.get("MTGR_PROTOCOL_FUZZ_SECONDS", "25"))
    seed = int(os.environ.get("MTGR_PROTOCOL_FUZZ_SEED", "18"))
    assert fuzz(seconds, seed) >= 1
