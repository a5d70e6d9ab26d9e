# SPDX-License-Identifier: GPL-3.0-or-later
"""The LUKS choices: Adiantum's cryptsetup spec and grade (beyond the catalog's modes), the
sector size the config lines and the measured mappings use, and the specs ``cipherbench
luks`` measures by default (``advise.luks_kernel`` rates ``advise``'s candidates)."""
from __future__ import annotations

from cipherbench import catalog

#: cryptsetup's spec of Adiantum (Linux 5.0), with its 256-bit key.
ADIANTUM_SPEC = "xchacha12,aes-adiantum-plain64"
ADIANTUM_GRADE = catalog.Grade(
    "recommended", "wide-block encryption over XChaCha12 and AES-256 (a change anywhere in a "
    "sector changes all of it); fast without AES instructions",
    "Crowley and Biggers, Adiantum, IACR ToSC 2018(4); Linux 5.0 dm-crypt")
#: The sector size the config lines set: one IV and one request per 4 KiB instead of 512 B.
SECTOR_SIZE = 4096
#: What ``cipherbench luks`` measures without --cipher: cryptsetup's LUKS2 default, AES-128
#: in XTS, Adiantum, the old CBC-ESSIV default.
DEFAULT_SPECS = (("aes-xts-plain64", 512), ("aes-xts-plain64", 256), (ADIANTUM_SPEC, 256),
                 ("aes-cbc-essiv:sha256", 256))
