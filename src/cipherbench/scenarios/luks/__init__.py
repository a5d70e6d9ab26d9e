# SPDX-License-Identifier: GPL-3.0-or-later
"""The disk-encryption scenario: the kernel's dm-crypt through real crypt mappings on a
RAM-backed device (``dmcrypt``), per cryptsetup spec (``specs``)."""
