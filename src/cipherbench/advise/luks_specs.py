"""The LUKS choices beyond the catalog's modes: Adiantum's cryptsetup spec and grade, and the
sector size the config lines set (``luks_kernel`` rates the candidates by the kernel's
implementation)."""
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
