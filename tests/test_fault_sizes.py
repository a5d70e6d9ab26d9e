# SPDX-License-Identifier: GPL-3.0-or-later
"""Every size option bounded by what the machine can hold: a payload that does not fit in
half the available memory is refused before anything starts (one line naming the option,
exit 1, no run stored), and the payload is made a MiB at a time, never as one allocation of
the whole size plus a translated copy."""
from __future__ import annotations

import tracemalloc

import pytest

from cipherbench.scenarios.payload import (CHUNK, PayloadTooLarge, available_memory, check_fits,
                                           random_payload)
from cipherbench.store import Store

GIB = 1 << 30


def test_check_fits_counts_every_copy_held():
    check_fits("--size", 2 * GIB, available=lambda: 8 * GIB)
    with pytest.raises(PayloadTooLarge, match=r"--size 64 GiB does not fit .* at most 4 GiB"):
        check_fits("--size", 64 * GIB, available=lambda: 8 * GIB)
    with pytest.raises(PayloadTooLarge, match=r"5 copies of it .* at most 819\.2 MiB"):
        check_fits("--size", 1 * GIB, copies=5, available=lambda: 8 * GIB)
    check_fits("--size", 64 * GIB, available=lambda: None)   # the kernel does not say


def test_available_memory_reads_the_kernel(tmp_path):
    f = tmp_path / "meminfo"
    f.write_text("MemTotal:       16000000 kB\nMemAvailable:    8000000 kB\n")
    assert available_memory(str(f)) == 8000000 * 1024
    assert available_memory(str(tmp_path / "none")) is None
    assert available_memory() is not None


def test_the_payload_is_made_in_chunks():
    size = 24 * CHUNK + 123
    table = bytes(b if b != 0x51 else 0x30 for b in range(256))
    tracemalloc.start()
    try:
        data = random_payload(size, table)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert len(data) == size and 0x51 not in data
    assert peak < size + 3 * CHUNK          # the buffer and a chunk or two, not two copies
    assert len(set(data[:CHUNK])) > 200     # random bytes


@pytest.mark.parametrize("args,option", [
    (["tls", "--lib", "openssl", "--loopback", "--loopback-size", "900G", "--no-transfer",
      "--handshakes"],
     "--loopback-size"),
    (["gpg", "--size", "900G", "--algo", "AES"], "--size"),
    (["ssh", "--size", "16G"], "--size"),
], ids=["tls", "gpg", "ssh"])
@pytest.mark.real
def test_a_size_the_machine_cannot_hold_is_refused_up_front(cli, env, args, option):
    have = available_memory()
    if args[0] == "ssh" and (have is None or have >= 32 * GIB):
        pytest.skip("this machine can hold 16 GiB (the documented maximum of ssh --size)")
    out = cli(*args)
    assert out.rc == 1, out.err
    assert len(out.err.strip().splitlines()) == 1 and "Traceback" not in out.err
    assert f"{option} " in out.err and "does not fit in this machine's memory" in out.err
    with Store.open(env["CIPHERBENCH_DB"]) as store:
        assert store.runs() == []
