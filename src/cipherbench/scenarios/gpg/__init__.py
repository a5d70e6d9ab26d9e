# SPDX-License-Identifier: GPL-3.0-or-later
"""The backup-encryption scenario: real ``gpg --symmetric`` per cipher algorithm (and age),
beside the same cipher's raw speed in libgcrypt's CFB mode from the core."""
